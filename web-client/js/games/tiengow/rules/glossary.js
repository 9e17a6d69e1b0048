/*
 * Tien Gow's glossary: the words a player meets at the table, each with its English term, its
 * 繁體 and 简体 forms, a line of meaning in each language and the section that says more.
 */
export default [
  { en: 'Banker', hant: '莊', hans: '庄', section: 3, meaning: {
    en: 'The player who leads the first trick; amounts to and from the banker are × m.',
    'zh-Hant': '領第一墩的人；莊家付或收的錢 × 莊家倍數 m。',
    'zh-Hans': '领第一墩的人；庄家付或收的钱 × 庄家倍数 m。' } },
  { en: 'Stack', hant: '棟', hans: '栋', section: 3, meaning: {
    en: 'A tile’s worth of a won trick: a trick of n tiles is n stacks; a hand has 8.',
    'zh-Hant': '贏得的墩按牌數計：n 隻牌的一墩是 n 棟；一局共 8 棟。',
    'zh-Hans': '赢得的墩按牌数计：n 张牌的一墩是 n 栋；一局共 8 栋。' } },
  { en: 'Trick', hant: '墩', hans: '墩', section: 3, meaning: {
    en: 'One lead and the three answers to it; the best combination takes it.',
    'zh-Hant': '一次領牌和其後三家的應對；最大的牌組贏得它。',
    'zh-Hans': '一次领牌和其后三家的应对；最大的牌组赢得它。' } },
  { en: 'Discard', hant: '墊', hans: '垫', section: 3, meaning: {
    en: 'To give up a trick by laying as many tiles face down; nobody sees them.',
    'zh-Hant': '放棄一墩，把同樣數目的牌面朝下放出；無人看得見。',
    'zh-Hans': '放弃一墩，把同样数目的牌面朝下放出；无人看得见。' } },
  { en: 'Win the hand', hant: '結', hans: '结', section: 3, meaning: {
    en: 'To win the final trick, and with it the hand.',
    'zh-Hant': '贏得最後一墩，也就贏得這一局。',
    'zh-Hans': '赢得最后一墩，也就赢得这一局。' } },
  { en: 'Civil / military', hant: '文 / 武', hans: '文 / 武', section: 1, meaning: {
    en: 'The two suits: 11 civil kinds in pairs, 10 military tiles ranked by pips.',
    'zh-Hant': '牌的兩類：文牌 11 種各兩隻，武牌 10 隻按點數排。',
    'zh-Hans': '牌的两类：文牌 11 种各两张，武牌 10 张按点数排。' } },
  { en: 'Heaven nine', hant: '天九', hans: '天九', section: 2, meaning: {
    en: 'Heaven (6-6) with a 9: the highest mixed pair, and the game’s name.',
    'zh-Hant': '天牌（6-6）配九點：最大的文武對，也是遊戲的名字。',
    'zh-Hans': '天牌（6-6）配九点：最大的文武对，也是游戏的名字。' } },
  { en: 'Supreme', hant: '至尊', hans: '至尊', section: 2, meaning: {
    en: '丁三 (1-2) with 大頭六 (2-4): only led; nothing beats it, it beats nothing.',
    'zh-Hant': '丁三（1-2）配大頭六（2-4）：只能領出；無牌能打，也打不過任何牌。',
    'zh-Hans': '丁三（1-2）配大头六（2-4）：只能领出；无牌能打，也打不过任何牌。' } },
  { en: 'Civil supreme', hant: '文尊', hans: '文尊', section: 2, meaning: {
    en: 'Option: a led pair of 銅錘六, beaten only by the pair of 高腳七.',
    'zh-Hant': '選項：領出的一對銅錘六，只有一對高腳七能打。',
    'zh-Hans': '选项：领出的一对铜锤六，只有一对高脚七能打。' } },
  { en: 'Empty-handed', hant: '空棟', hans: '空栋', section: 4, meaning: {
    en: 'A loser with no stack pays 1 unit more (5 instead of 4).',
    'zh-Hant': '沒有棟的輸家多付 1 單位（付 5 而不是 4）。',
    'zh-Hans': '没有栋的输家多付 1 单位（付 5 而不是 4）。' } },
  { en: 'Over by one / two', hant: '入一 / 入二', hans: '入一 / 入二', section: 4, meaning: {
    en: 'A loser with 5 or 6 stacks: the winner pays them 1 or 2 units.',
    'zh-Hant': '有 5 或 6 棟的輸家：由贏家付他 1 或 2 單位。',
    'zh-Hans': '有 5 或 6 栋的输家：由赢家付他 1 或 2 单位。' } },
  { en: 'Eight / seven stacks', hant: '八支 / 七支', hans: '八支 / 七支', section: 4, meaning: {
    en: 'The winner took all 8 stacks: ×4, or ×2 when a higher last single was held back.',
    'zh-Hant': '贏家取得全部 8 棟：×4；若最後一墩有人手持更大的單張則 ×2。',
    'zh-Hans': '赢家取得全部 8 栋：×4；若最后一墩有人手持更大的单张则 ×2。' } },
  { en: 'Small finish', hant: '么結', hans: '幺结', section: 4, meaning: {
    en: 'Winning the last trick with the single 丁三: ×2.',
    'zh-Hant': '以單張丁三贏最後一墩：×2。',
    'zh-Hans': '以单张丁三赢最后一墩：×2。' } },
  { en: 'Supreme finish', hant: '包尊', hans: '包尊', section: 4, meaning: {
    en: 'Winning the last trick with a led 至尊: ×2.',
    'zh-Hant': '以領出的至尊贏最後一墩：×2。',
    'zh-Hans': '以领出的至尊赢最后一墩：×2。' } },
  { en: 'Quartet finish', hant: '四大包', hans: '四大包', section: 4, meaning: {
    en: 'Winning the last trick with a quartet: ×4.',
    'zh-Hant': '以四大贏最後一墩：×4。',
    'zh-Hans': '以四大赢最后一墩：×4。' } },
  { en: 'Capture', hant: '擒', hans: '擒', section: 4, meaning: {
    en: 'A last-trick lead of 丁三 taken by 大頭六: the leader pays for all losers, × 4.',
    'zh-Hant': '最後一墩領出丁三被大頭六贏：領牌者替所有輸家付，× 4。',
    'zh-Hans': '最后一墩领出丁三被大头六赢：领牌者替所有输家付，× 4。' } },
  { en: 'Supreme bonus', hant: '賀尊', hans: '贺尊', section: 5, meaning: {
    en: 'Leading 至尊 before the last trick: each other player pays 2 units (× m).',
    'zh-Hant': '在最後一墩之前領出至尊：其他每家付 2 單位（× m）。',
    'zh-Hans': '在最后一墩之前领出至尊：其他每家付 2 单位（× m）。' } },
  { en: 'Quartet bonus', hant: '四大賀', hans: '四大贺', section: 5, meaning: {
    en: 'A trick won by a quartet: each other player pays its winner 4 units (× m).',
    'zh-Hant': '以四大贏得一墩：其他每家付贏家 4 單位（× m）。',
    'zh-Hans': '以四大赢得一墩：其他每家付赢家 4 单位（× m）。' } },
  { en: 'Natural hand', hant: '例牌', hans: '例牌', section: 6, meaning: {
    en: 'A dealt hand that wins at once, such as no red pip at all.',
    'zh-Hant': '一發到就贏的牌，例如完全沒有紅點。',
    'zh-Hans': '一发到就赢的牌，例如完全没有红点。' } },
  { en: 'Fly / turn', hant: '飛莊 / 輪莊', hans: '飞庄 / 轮庄', section: 3, meaning: {
    en: 'Who banks next: the winner (fly), or the banker until beaten, then the next seat (turn).',
    'zh-Hant': '誰做下一局莊家：贏家（飛莊），或莊家贏了連莊、否則下一家（輪莊）。',
    'zh-Hans': '谁做下一局庄家：赢家（飞庄），或庄家赢了连庄、否则下一家（轮庄）。' } },
];
