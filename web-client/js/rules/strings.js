/*
 * strings — the words of the rules pages around the rules themselves (title, contents, glossary
 * heading, the way back), in 繁體中文, 简体中文 and English. The rules of each game, its chart
 * and its words are the game's (js/games/<game>/rules/); say() looks a word up here.
 */

const WORDS = {
  en: {
    'page.title': '{game}: the rules',
    'page.games': 'Rules of the games',
    'page.back': 'Back to the teahouse',
    'page.contents': 'Contents',
    'page.source': 'These are the rules the house plays by; each section has the number the rest of the client cites (“rules §4”).',
    'page.top': 'Top',
    'glossary.title': 'Glossary',
    'glossary.intro': 'The words a player meets at the table, in English, 繁體 and 简体.',
    'glossary.en': 'English',
    'glossary.hant': '繁體',
    'glossary.hans': '简体',
    'glossary.meaning': 'Meaning',
    'glossary.see': '§{n}',
    'lang.label': 'Language',
  },
  'zh-Hant': {
    'page.title': '{game}規則',
    'page.games': '各遊戲規則',
    'page.back': '返回茶館',
    'page.contents': '目錄',
    'page.source': '以下是本館採用的規則；各節編號與介面其他地方所引用的（「規則 §4」）相同。',
    'page.top': '回到頂部',
    'glossary.title': '詞彙表',
    'glossary.intro': '牌桌上常見的用語，附英文、繁體及简体。',
    'glossary.en': 'English',
    'glossary.hant': '繁體',
    'glossary.hans': '简体',
    'glossary.meaning': '意思',
    'glossary.see': '§{n}',
    'lang.label': '語言',
  },
  'zh-Hans': {
    'page.title': '{game}规则',
    'page.games': '各游戏规则',
    'page.back': '返回茶馆',
    'page.contents': '目录',
    'page.source': '以下是本馆采用的规则；各节编号与界面其他地方所引用的（“规则 §4”）相同。',
    'page.top': '回到顶部',
    'glossary.title': '词汇表',
    'glossary.intro': '牌桌上常见的用语，附英文、繁體及简体。',
    'glossary.en': 'English',
    'glossary.hant': '繁體',
    'glossary.hans': '简体',
    'glossary.meaning': '意思',
    'glossary.see': '§{n}',
    'lang.label': '语言',
  },
};

/* The word of that key in a language (English when missing), with {name} filled from params. */
export function say(lang, key, params) {
  const text = (WORDS[lang] && WORDS[lang][key]) || WORDS.en[key] || key;
  return params ? text.replace(/\{(\w+)\}/g, (m, name) => (params[name] !== undefined ? String(params[name]) : m)) : text;
}

export const PAGE_LANGS = Object.keys(WORDS);
