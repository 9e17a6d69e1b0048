/*
 * Tien Gow 天九, the rules in English: docs/rules/tiengow.md §1–§7 told for a new player (the
 * score calculator's §8 is left to the document). Blocks are drawn by js/rules/page.js and ./index.js.
 */
export default {
  intro: [
    'Tien Gow (天九, “Heaven Nine”) is a trick-taking game for four players with the 32 Chinese dominoes. Each player gets 8 tiles; the winner of the **last trick** wins the hand, and the others pay by how many tricks’ worth of tiles (stacks) they took.',
  ],
  sections: [
    {
      n: 1, title: 'Tiles (32)',
      body: [
        { p: 'Every tile is two dice faces. The 1s and the 4s are red; on Heaven (天, 6-6) half of the pips are red. There are two suits:' },
        { list: [
          '**Civil 文**: 11 kinds, two tiles of each (22 tiles), each kind with its own rank. Heaven 天 is the highest, Copper-hammer six 銅錘六 the lowest.',
          '**Military 武**: 10 tiles, ranked only by their pip total: 9 > 8 > 7 > 6 > 5 > 3. Two tiles of the same total are equal (the 9s 3-6 and 4-5, say). The 6 (2-4, 大頭六) and the 3 (1-2, 丁三) are one tile each.',
        ] },
        { chart: true },
        { note: 'A civil tile and a military tile never beat each other: a trick is always fought inside one type (§2).' },
      ],
    },
    {
      n: 2, title: 'Combinations: what beats what',
      body: [
        { p: 'The leader of a trick plays a combination of 1 to 4 tiles. A later play beats it only if it is a combination **of the same type** and **strictly higher** rank; an equal rank does not beat (the earlier one stands).' },
        { table: {
          head: ['Type', 'Tiles', 'Ranking, high → low'],
          rows: [
            ['Civil single', 'one civil tile', 'by civil rank (§1)'],
            ['Military single', 'one military tile', '9 > 8 > 7 > 6 > 5 > 3'],
            ['Civil pair 文對', 'two identical civil tiles', '雙天 (two Heavens) … 雙銅錘, by tile rank'],
            ['Military pair 武對', 'the two tiles of one total: 9s, 8s, 7s or 5s', '雜九 > 雜八 > 雜七 > 雜五'],
            ['Mixed pair 文武對', 'Heaven + a 9, Earth + an 8, Man + a 7, Goose + a 5', '天九 > 地八 > 人七 > 和五'],
            ['Supreme 至尊', '1-2 + 2-4', 'may only be led; nothing beats it and it beats nothing'],
            ['Civil triple 三文', 'two civil + one military: 天天9, 地地8, 人人7, 和和5', '天 > 地 > 人 > 和'],
            ['Military triple 三武', 'one civil + two military: 天99, 地88, 人77, 和55', '天 > 地 > 人 > 和 (another type than 三文)'],
            ['Quartet 四', '天天99, 地地88, 人人77, 和和55', '天 > 地 > 人 > 和'],
          ],
        } },
        { h3: 'The mixed pairs, strongest first, and the Supreme' },
        { combos: [['6-6', '3-6'], ['1-1', '2-6'], ['4-4', '2-5'], ['1-3', '2-3'], ['1-2', '2-4']] },
        { h3: 'A civil pair and a military pair' },
        { combos: [['6-6', '6-6'], ['3-6', '4-5']] },
        { h3: 'A civil triple, a military triple and a quartet' },
        { combos: [['6-6', '6-6', '4-5'], ['6-6', '3-6', '4-5'], ['6-6', '6-6', '3-6', '4-5']] },
        { p: 'Any tile may always be led or played as a single. The leader may break up any combination. Anything else (Heaven with an 8, two different civil tiles, …) is not a combination and can only be discarded.' },
        { p: '**Civil supreme 文尊** (option, off by default): a pair of 銅錘六 (1-5) led as a trick is beaten only by the pair of 高腳七 (1-6, 孖高腳); once captured, nothing later beats it. Without the option, or when not led, it is simply the lowest civil pair.' },
      ],
    },
    {
      n: 3, title: 'How a hand goes',
      body: [
        { list: [
          'Four players; play goes counter-clockwise. Each is dealt 8 tiles.',
          'The banker (莊) leads the first trick. A table’s first banker is chosen by a dice roll.',
          'The leader plays any combination of 1–4 tiles. Each next player either plays a combination of the same type that beats the best one so far, or **discards** (墊) the same number of tiles face down. Playing is never compulsory. Discards are never shown to anyone.',
          'The best combination wins the trick: a trick of n tiles is worth n **stacks** (棟; a hand has 8 stacks in all). The trick’s winner leads the next one.',
          'The trick that empties every hand is the final trick. **Its winner wins the hand** (結).',
          'To win, a player must end with at least 2 stacks: on the final trick of n tiles, a player whose stacks + n would be under 2 may only discard. (With no stack you cannot win a single-tile last trick, but you can win a last pair.)',
          'Next banker (option “Next banker”): **fly** (飛莊, default) — the hand’s winner banks next; **turn** (輪莊) — the banker keeps the bank after winning, otherwise it passes to the next seat. A natural hand (§6) counts as a win by its holder.',
        ] },
      ],
    },
    {
      n: 4, title: 'Scoring',
      body: [
        { p: 'Amounts are in units; the table’s stake turns them into points. The **banker multiplier m** is 2 in a banker’s first hand and grows by 1 for each hand the same banker keeps the bank (2, 3, 4, …); it goes back to 2 when the bank passes.' },
        { p: 'Each loser L pays the winner W, with s = the stacks L took:' },
        { list: [
          'units = 4 − s, plus 1 more when s = 0 (**空棟**, no stack at all). With 5 or 6 stacks the units are −1 or −2 (**入一 / 入二**): the winner pays the loser.',
          '× m when W or L is the banker — except that a losing banker’s 入一/入二 is not multiplied.',
          '× M, the multiplier of the special endings below (1 if none; several multiply: 八支 won by 至尊 is ×8). M multiplies 入一/入二 too.',
        ] },
        { table: {
          head: ['Ending', 'When', 'Multiplier'],
          rows: [
            ['八支', 'the winner took all 8 stacks — and either the last trick had 2 or more tiles each, or it had 1 tile each and nobody else’s last tile outranked the winner’s', '×4'],
            ['七支', 'the winner took all 8 stacks, the last trick had 1 tile each and another player’s last tile outranked the winner’s (a higher single of the same suit)', '×2'],
            ['么結', 'the last trick won by the single 丁三 (1-2) (with 文尊 on, also by the single 銅錘六)', '×2'],
            ['包尊', 'the last trick won by a led 至尊 (or a led 文尊 nobody captured)', '×2, no 賀尊 for it'],
            ['四大包', 'the last trick won by a quartet', '×4'],
            ['擒 (么雙擒四)', 'the last trick led by the single 丁三 and won by 大頭六, even if another tile beat the 丁三 first (with 文尊: 銅錘六 led, won by 高腳七)', 'see below'],
          ],
        } },
        { p: '**擒**: no other ending applies and the 擒 multiplier (4, or 2 as an option) takes M’s place. For each loser take a(L) = units, × m when the banker is involved (入一/入二 count negative). By default the captured leader alone pays the winner the sum of the three a(L) × 4; the others pay nothing. With the option “擒: the captured leader pays for all” off, each loser pays its own a(L) × 4.' },
        { h3: 'Worked examples' },
        { example: { title: 'A — East banks (m = 2); stacks East 1, South 4, West 0, North 3; North wins the last trick', lines: [
          'East: (4 − 1) × 2 (banker) = 6.', 'South: 4 − 4 = 0.', 'West: 4 − 0 + 1 (空棟) = 5.', 'North +11.'] } },
        { example: { title: 'B — as A, but South 5 and North 2', lines: [
          'East pays 6, West pays 5; South took 5 stacks: 入一, North pays South 1.', 'North +10.'] } },
        { example: { title: 'C — A banks with m = 4 and wins with 2 stacks; B 5, C 1, D 0', lines: [
          'B: 入一 × 4 = A pays B 4.', 'C: 3 × 4 = 12.', 'D: (4 + 1) × 4 = 20.', 'A nets +28.'] } },
        { example: { title: 'D — next hand, m = 5, banker A loses; A 2, B 2 (winner), C 4, D 0', lines: [
          'A: 2 × 5 = 10.', 'C: 0.', 'D: 5.', 'B +15.'] } },
        { example: { title: 'E — D takes all 8 stacks (八支, ×4) while B banks with m = 2', lines: [
          'A: 5 × 4 = 20.', 'B: 5 × 2 × 4 = 40.', 'C: 20.', 'D +80.'] } },
        { example: { title: 'F — East banks with m = 3; East 5, South 2 (winner), West 1, North 0', lines: [
          'South pays East 1 (a losing banker’s 入一 is not multiplied).', 'West pays 3, North pays 5.', 'South +7, East +1.'] } },
        { example: { title: 'G — 擒: East banks (m = 2); on the last trick South leads 丁三 and North wins it with 大頭六; East 2, South 2, West 1, North 3', lines: [
          'a(East) = 2 × 2 = 4, a(South) = 2, a(West) = 3.', 'South alone pays North (4 + 2 + 3) × 4 = 36; East and West pay nothing.',
          'With that option off: East pays 16, South 8, West 12.', 'North +36 either way.'] } },
      ],
    },
    {
      n: 5, title: 'Bonuses during the hand',
      body: [
        { p: 'Paid when their trick completes, never on the last trick. “× m” means: × m when the banker pays or receives.' },
        { list: [
          '**賀尊**: leading 至尊 (or, with 文尊, a 文尊 nobody captures) — each other player pays the leader 2 units × m. On the last trick it is 包尊 instead (§4).',
          '**擒尊** (only with 文尊): a led 文尊 captured by 孖高腳 — the capturer collects the 賀尊 amounts from the other three.',
          '**四大賀**: a trick won by a quartet — its winner collects 4 units × m from each other player. Option “to every quartet played”: each quartet played (led or played to beat, not discarded) collects, win or lose.',
        ] },
      ],
    },
    {
      n: 6, title: 'Natural hands (例牌)',
      body: [
        { p: 'Right after the deal, in order banker first then play order, a player holding one of these 8-tile hands shows it and wins at once; no trick is played. It settles as 七支 (×2) or 八支 (×4) with everyone else at 0 stacks; nothing else applies. A hand that qualifies both ways counts as 八支.' },
        { table: {
          head: ['The 8 dealt tiles', 'Counts as', 'Option'],
          rows: [
            ['exactly one red pip', '七支', 'always on'],
            ['no red pip', '八支', 'always on'],
            ['exactly 7 civil tiles', '七支', '7 civil'],
            ['exactly 7 military tiles', '七支', '7 military'],
            ['8 civil tiles', '八支', '8 civil'],
            ['8 military tiles', '八支', '8 military'],
            ['four pairs: four civil or military pairs of §2 (mixed pairs and 至尊 do not count)', '八支', 'four pairs'],
          ],
        } },
      ],
    },
    {
      n: 7, title: 'Table options',
      body: [
        { p: 'The host chooses these when opening the table and may change them between hands; each hand is played and settled under the options it started with. Defaults first.' },
        { table: {
          head: ['Option', 'Choices', 'What it changes'],
          rows: [
            ['文尊 civil supreme', 'off / on', 'a led pair of 銅錘六 is beaten only by 孖高腳 (§2), with 么結, 包尊, 賀尊 and 擒尊 for it'],
            ['Next banker', '飛莊 the winner banks / 輪莊 the bank passes in turn', 'who banks next (§3)'],
            ['擒 multiplier', '4 / 2', 'the multiplier of 擒 (§4)'],
            ['擒: the captured leader pays for all', 'on / off', 'the captured leader pays for all three losers, or each loser pays its own (§4)'],
            ['四大賀 bonus', 'to a quartet that wins its trick / to every quartet played', 'who collects for a quartet (§5)'],
            ['Extra natural hands (例牌)', '7 civil, 7 military, 8 civil, 8 military, four pairs: each off or on', 'which hands also win at once (§6)'],
            ['Stake per unit', '1 or more', 'every amount is units × stake'],
            ['Turn timer', '5–300 s (30)', 'after it a bot plays for the seat'],
          ],
        } },
      ],
    },
  ],
};
