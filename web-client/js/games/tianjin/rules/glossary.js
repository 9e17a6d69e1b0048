/*
 * Tianjin Mahjong's glossary: the words a player meets at the table, each with its English term,
 * its 繁體 and 简体 forms, a line of meaning in each language and the section that says more.
 */
export default [
  { en: 'Wild', hant: '混兒', hans: '混儿', section: 2, meaning: {
    en: 'A tile of the indicator’s kind or the next: stands for any tile in a winning hand.',
    'zh-Hant': '翻出那種或下一種的牌：胡牌時可以代替任何牌。',
    'zh-Hans': '翻出那种或下一种的牌：胡牌时可以代替任何牌。' } },
  { en: 'Indicator', hant: '翻牌', hans: '翻牌', section: 2, meaning: {
    en: 'The tile turned up after the deal that decides the wilds.',
    'zh-Hant': '發牌後翻出、決定混兒的那張牌。',
    'zh-Hans': '发牌后翻出、决定混儿的那张牌。' } },
  { en: 'Fan', hant: '番', hans: '番', section: 4, meaning: {
    en: 'The measure of a win: each of the three others pays the winner the hand’s fan × base.',
    'zh-Hant': '胡牌的計算單位：其他三家各付胡牌者番數 × 底。',
    'zh-Hans': '胡牌的计算单位：其他三家各付胡牌者番数 × 底。' } },
  { en: 'Self-draw', hant: '自摸', hans: '自摸', section: 3, meaning: {
    en: 'Winning on a tile you drew yourself: the only way to win here.',
    'zh-Hant': '用自己摸到的牌胡：這裡唯一的胡法。',
    'zh-Hans': '用自己摸到的牌胡：这里唯一的胡法。' } },
  { en: 'Pung / kong', hant: '碰 / 槓', hans: '碰 / 杠', section: 3, meaning: {
    en: 'Three / four of a kind; a discard may be claimed for them, but never with a wild.',
    'zh-Hant': '三張／四張同樣的牌；可以碰或槓別人打出的牌，但不能用混兒。',
    'zh-Hans': '三张／四张同样的牌；可以碰或杠别人打出的牌，但不能用混儿。' } },
  { en: 'Gold kong', hant: '金槓', hans: '金杠', section: 5, meaning: {
    en: 'A concealed kong of four wilds of one kind: each other player pays 8 fan.',
    'zh-Hant': '四張同一種混兒的暗槓：其他每家付 8 番。',
    'zh-Hans': '四张同一种混儿的暗杠：其他每家付 8 番。' } },
  { en: 'Wild wait', hant: '混兒吊', hans: '混儿吊', section: 4, meaning: {
    en: 'The winning tile’s group is completed only by wilds: 2 fan.',
    'zh-Hant': '胡的牌那一組只靠混兒湊成：2 番。',
    'zh-Hans': '胡的牌那一组只靠混儿凑成：2 番。' } },
  { en: 'Plain', hant: '素（沒混）', hans: '素（没混）', section: 4, meaning: {
    en: 'No tile of a wild kind anywhere in the hand: 2 fan (4 under 刮大風).',
    'zh-Hant': '整手牌沒有混兒那幾種的牌：2 番（刮大風 4 番）。',
    'zh-Hans': '整手牌没有混儿那几种的牌：2 番（刮大风 4 番）。' } },
  { en: 'Catching the five', hant: '捉五', hans: '捉五', section: 4, meaning: {
    en: 'Winning on 五萬 in the middle of 四萬-五萬-六萬: 3 fan.',
    'zh-Hant': '胡五萬，補在四萬-五萬-六萬中間：3 番。',
    'zh-Hans': '胡五万，补在四万-五万-六万中间：3 番。' } },
  { en: 'Win on a kong', hant: '槓開', hans: '杠开', section: 4, meaning: {
    en: 'Winning on the replacement tile drawn after a kong: 2 fan.',
    'zh-Hant': '開槓後補牌自摸胡：2 番。',
    'zh-Hans': '开杠后补牌自摸胡：2 番。' } },
  { en: 'Dragon', hant: '龍', hans: '龙', section: 4, meaning: {
    en: '1-2-3, 4-5-6 and 7-8-9 of one suit in the hand: 4 fan.',
    'zh-Hant': '同一門的 1-2-3、4-5-6、7-8-9：4 番。',
    'zh-Hans': '同一门的 1-2-3、4-5-6、7-8-9：4 番。' } },
  { en: 'Dragon in the wilds’ suit', hant: '本混', hans: '本混', section: 4, meaning: {
    en: 'The 龍 is in the same suit as the wilds: doubles the total.',
    'zh-Hant': '龍與混兒同一門：總數加倍。',
    'zh-Hans': '龙与混儿同一门：总数加倍。' } },
  { en: 'Sit', hant: '坐莊', hans: '坐庄', section: 5, meaning: {
    en: 'The banker’s choice before a hand: everything the banker pays or receives is ×2.',
    'zh-Hant': '莊家在每把前的選擇：莊家付或收的錢都 ×2。',
    'zh-Hans': '庄家在每把前的选择：庄家付或收的钱都 ×2。' } },
  { en: 'Pull', hant: '拉莊', hans: '拉庄', section: 5, meaning: {
    en: 'A non-banker’s answer to a sitting banker: amounts between the two double again.',
    'zh-Hant': '閒家對坐莊的回應：他與莊家之間的錢再加倍。',
    'zh-Hans': '闲家对坐庄的回应：他与庄家之间的钱再加倍。' } },
  { en: 'Shovel', hant: '鏟', hans: '铲', section: 5, meaning: {
    en: 'Option: all three follow the banker’s first discard with the same tile; the banker pays each 1 fan.',
    'zh-Hant': '選項：三家都跟打莊家的第一張牌；莊家付每家 1 番。',
    'zh-Hans': '选项：三家都跟打庄家的第一张牌；庄家付每家 1 番。' } },
  { en: 'Drawn hand', hant: '荒牌', hans: '荒牌', section: 3, meaning: {
    en: 'The wall ran out with no win; kongs still pay (not under 刮大風).',
    'zh-Hant': '牌摸完仍沒有人胡；槓照樣收錢（刮大風除外）。',
    'zh-Hans': '牌摸完仍没有人胡；杠照样收钱（刮大风除外）。' } },
  { en: 'Heavenly / earthly hand', hant: '天胡 / 地胡', hans: '天胡 / 地胡', section: 4, meaning: {
    en: 'The banker wins on the deal / a non-banker wins on the first draw: 4 fan.',
    'zh-Hant': '莊家發牌就胡／閒家第一次摸牌就胡：4 番。',
    'zh-Hans': '庄家发牌就胡／闲家第一次摸牌就胡：4 番。' } },
  { en: 'Big wind', hant: '刮大風', hans: '刮大风', section: 6, meaning: {
    en: 'A preset with more wilds (the kind before the indicator too, or every wind).',
    'zh-Hant': '混兒更多的玩法（翻牌的上一種也是，或全部風牌）。',
    'zh-Hans': '混儿更多的玩法（翻牌的上一种也是，或全部风牌）。' } },
  { en: 'Base', hant: '底', hans: '底', section: 5, meaning: {
    en: 'Points per fan, chosen by the host.',
    'zh-Hant': '每番多少分，由主人選定。',
    'zh-Hans': '每番多少分，由主人选定。' } },
];
