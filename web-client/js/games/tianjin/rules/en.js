/*
 * Tianjin Mahjong 天津麻将, the rules in English: docs/rules/tianjin-mahjong.md §1–§7 told for a
 * new player (§7 here is the table's options; the calculator's input format is left to the
 * document). Blocks are drawn by js/rules/page.js and ./index.js; in a tile row a name ending in
 * '*' is a wild.
 */
export default {
  intro: [
    'Tianjin Mahjong (天津麻将) is a fast four-player mahjong: no chows, wins only by **self-draw**, and wild tiles (**混儿**) chosen by an indicator each hand. A win is paid in **fan** (番) by each of the three others, and kongs earn on their own.',
  ],
  sections: [
    {
      n: 1, title: 'Tiles and table',
      body: [
        { p: '136 tiles, no flowers: characters 萬, dots 筒 and bamboo 條, 1 to 9; the four winds 東南西北; the three dragons 中發白 — four of each kind, 34 kinds.' },
        { chart: true },
        { list: [
          'Four players; play goes counter-clockwise. Seat winds are drawn at random (打風); the first banker by a dice roll.',
          'The banker gets 14 tiles and discards first; the others get 13.',
        ] },
      ],
    },
    {
      n: 2, title: 'Wilds (混儿)',
      body: [
        { p: 'After the deal an **indicator** tile is turned up from the wall. The wilds are the indicator’s kind and the **next** kind (中下滾混兒): 7 wild tiles, since the indicator itself stays in the dead wall.' },
        { p: 'Next kind: in a number suit 1 → 2 → … → 9 → 1; winds East → South → West → North → East; dragons 中 → 發 → 白 → 中.' },
        { tiles: [
          { indicator: '3m', caption: 'Indicator 三萬: the wilds are 三萬 and 四萬.' },
          { indicator: '9p', caption: 'Indicator 九筒: the wilds are 九筒 and 一筒.' },
          { indicator: 'P', caption: 'Indicator 白: the wilds are 白 and 中.' },
        ] },
        { list: [
          'A tile of a wild kind is a wild wherever it sits, even where it stands for itself. In a winning hand a wild may stand for any tile (even a fifth of a kind).',
          'A wild never helps to claim a discard: no pung or kong holds a wild — except a concealed kong of four wilds of one kind, the **金杠** (§5).',
          'A player who discards a wild may not win this hand (an option also makes them pay 1 fan to each other player).',
        ] },
      ],
    },
    {
      n: 3, title: 'How a hand goes',
      body: [
        { list: [
          'Draw, then discard. There are **no chow** (吃) claims.',
          '**Pung** (碰) a discard with two natural tiles of its kind; **exposed kong** (明杠) with three; a **concealed kong** (暗杠) is four in hand, shown. Adding a drawn tile to your exposed pung makes an exposed kong. After any kong, draw a replacement from the back of the wall.',
          'You win only by **self-draw** (自摸), a kong replacement included: never on someone’s discard, and no robbing a kong.',
          'The live wall ends at the tile before the indicator. If it runs out with no win, the hand is drawn (荒牌). A kong that finds no replacement tile also ends the hand drawn (or, as an option, takes the tile before the indicator).',
          'A winning hand is **four sets and a pair**. A set is a pung, a kong or a chow (1-2-3 of a suit) — chows may be formed in hand, they just cannot be claimed. No special shapes (no seven pairs, no thirteen orphans).',
          'A win must score at least one fan type of §4: a bare win (鸡胡) is not allowed.',
        ] },
        { tiles: [
          { tiles: [['1s', '2s', '3s'], ['7p', '7p', '7p'], ['E', 'E', 'E'], ['4m', '5m', '6m'], ['C', 'C']], caption: 'Four sets and a pair, self-drawn, with no tile of a wild kind in it: at least 素 (2 fan).' },
        ] },
      ],
    },
    {
      n: 4, title: 'Fans and how they combine',
      body: [
        { p: 'A reading of a winning hand puts every tile in one set or the pair, each wild standing for the tile it fills. Fans are judged on one reading:' },
        { table: {
          head: ['Fan', 'Value', 'When'],
          rows: [
            ['混儿吊', '2', 'the winning tile’s group is completed only by wilds: the winning tile and one wild as the pair (单混吊), or the winning tile and two wilds as a set (双混吊)'],
            ['素 / 没混', '2', 'no tile of a wild kind in the hand, melds included (a 金杠 hand is never 素)'],
            ['捉五', '3', 'the winning tile is 五萬 (or a wild standing for it), filling the middle of 四萬-五萬-六萬 (四萬 and 六萬 may be wilds)'],
            ['杠开', '2', 'won on a kong replacement tile'],
            ['龙', '4', '1-2-3, 4-5-6 and 7-8-9 of one suit as three sets (wilds may fill in)'],
            ['本混', '×2', 'the 龙 is in the suit of the wilds (only when the wilds are of a number suit)'],
            ['天胡 / 地胡', '4', '天胡: the banker’s 14 dealt tiles win; 地胡: a non-banker wins on the first draw. Neither with a meld or on a kong replacement'],
          ],
        } },
        { tiles: [
          { tiles: [['3m', '4m', '5m'], ['7s', '7s', '7s'], ['N', 'N', 'N'], ['2p', '3p', '4p'], ['F!', '6p*']], caption: '混儿吊 (单混吊): the winning 發 makes the pair with a wild (here the wilds are 六筒 and 七筒).' },
          { tiles: [['4m', '5m!', '6m'], ['1p', '1p', '1p'], ['S', 'S', 'S'], ['7s', '8s', '9s'], ['P', 'P']], caption: '捉五: the winning 五萬 fills the middle of 四萬-五萬-六萬 — with no tile of a wild kind in the hand, 素捉五: 2 × 3 = 6.' },
          { tiles: [['1m', '2m', '3m'], ['4m', '5m', '6m'], ['7m', '8m', '9m'], ['W', 'W', 'W'], ['2s', '2s']], caption: '龙: 1-2-3, 4-5-6, 7-8-9 of 萬 — 4 fan (with no tile of a wild kind in the hand, 素龙: 2 × 4 = 8).' },
        ] },
        { h3: 'Combining' },
        { list: [
          'All fans of a total come from one reading. **Multiply** them — except that 捉五 and 龙 together count 3 + 4 = 7 before multiplying.',
          '混儿吊 and 素 never both apply. 混儿吊 combines with 捉五 only as 双混儿捉五 (the two wilds stand for 四萬 and 六萬).',
          '混儿吊 counts together with 龙 only when the dragon’s three sets do not include the winning tile’s wild-completed group.',
          'When a hand can be read several ways, the highest total counts.',
        ] },
        { h3: 'Worked totals' },
        { pairs: [
          ['杠开混儿吊', '2 × 2 = 4'], ['双混儿捉五', '2 × 3 = 6'], ['素捉五', '6'], ['没混杠开', '4'], ['杠开捉五', '6'],
          ['混吊龙', '8'], ['捉五龙', '3 + 4 = 7'], ['杠开龙', '8'], ['素龙', '8'], ['本混龙', '4 × 2 = 8'],
          ['杠开双混捉五', '12'], ['杠开素捉五', '12'], ['杠开混吊龙', '16'], ['混吊本混龙', '16'], ['双混捉五龙', '2 × 7 = 14'],
          ['杠开捉五龙', '14'], ['杠开本混龙', '16'], ['杠开素龙', '16'], ['素捉五龙', '14'], ['本混捉五龙', '14'],
          ['杠开混吊本混龙', '32'], ['双混捉五本混龙', '28'], ['杠开素捉五龙', '28'], ['杠开本混捉五龙', '28'],
        ] },
      ],
    },
    {
      n: 5, title: 'Payments',
      body: [
        { p: 'Units = fan × the table’s base (底, 1 by default).' },
        { list: [
          '**The win**: each of the three others pays the winner the hand’s fan.',
          '**Kongs** pay whether or not their owner wins: an exposed kong 1 fan, a concealed kong 2 fan, from each other player — added to the win, not multiplied into it. A **金杠** (four wilds of one kind, concealed) pays 8 (option: 4, or not allowed).',
          '**坐庄**: before a hand the banker may sit; then every amount the banker pays or receives is ×2. A banker who sat and keeps the bank must sit again until the bank passes (option 死坐庄: always sit).',
          '**拉庄**: when the banker sits, each other player may pull; amounts between that player and the banker double again (×4 with the banker sitting). Option: up to two pulls (×8).',
          '**铲** (option, off by default): if the banker’s first discard is followed at once by the same tile from all three others, the banker pays 1 fan to each.',
          '**The bank** stays after the banker wins (冧庄) and after a drawn hand — except a drawn hand in which a non-banker made a kong and the banker made none. Otherwise it passes to the next seat.',
        ] },
        { example: { title: 'Example — the banker (East) sat; South pulled twice, North once; West wins with 6 fan; South made an exposed kong and West a concealed kong (up to two pulls allowed)', lines: [
          'The win: East pays West 6 × 2 (sat) = 12; South 6; North 6.',
          'South’s kong: East pays 1 × 2 × 4 (sat, two pulls) = 8; West 1; North 1.',
          'West’s concealed kong: East pays 2 × 2 = 4; South 2; North 2.',
          'Net: East −24, South +2, West +31, North −9. South banks next.',
        ] } },
      ],
    },
    {
      n: 6, title: 'The 刮大风 preset',
      body: [
        { p: 'A wilder variant the host may choose:' },
        { list: [
          'Wilds: the kind **before** the indicator’s, the indicator’s and the next (上中下滾混兒): 11 wild tiles. Before 1 comes 9, before 中 comes 白.',
          'When the indicator is a wind, **all four winds** are wild (15 wild tiles).',
          'No bare 混儿吊 win (混儿吊 with another fan still counts). 素 is worth 4 fan (also in combinations). No 天胡 (地胡 stays). Kongs pay nothing in a drawn hand.',
        ] },
        { tiles: [
          { indicator: '5s', gua: true, caption: 'Indicator 五條 under 刮大风: 四條, 五條 and 六條 are wild.' },
          { indicator: 'W', gua: true, caption: 'Indicator 西 under 刮大风: every wind is wild.' },
        ] },
      ],
    },
    {
      n: 7, title: 'Table options',
      body: [
        { p: 'The host chooses these when opening the table and may change them between hands; each hand is played and settled under the options it started with. Defaults first.' },
        { table: {
          head: ['Option', 'Choices', 'What it changes'],
          rows: [
            ['Preset', 'standard (中下滚混儿) / 刮大风', 'the wilds and the rules of §6'],
            ['Discarding a wild costs 1 fan to each other player', 'off / on', 'a wild discarder never wins that hand; with this on they also pay (§2)'],
            ['金杠', 'pays 8 fan / pays 4 fan / not allowed', 'the concealed kong of four wilds (§5)'],
            ['铲', 'off / on', 'the banker’s first discard followed by all three (§5)'],
            ['死坐庄', 'off / on', 'the banker always sits (§5)'],
            ['拉庄: pulls per player', 'once (×2) / up to twice (×4)', '§5'],
            ['A kong that finds no replacement tile', 'ends the hand drawn / takes the tile before the indicator', '§3'],
            ['Base (底)', '1 to 1,000,000 (1)', 'units per fan'],
            ['Turn timer', '5–300 s (30)', 'after it a bot plays for the seat'],
          ],
        } },
        { note: 'The house’s score calculator (teahouse-score) checks a hand’s fan and a hand’s payments by these same rules; its input is described in docs/rules/tianjin-mahjong.md §7.' },
      ],
    },
  ],
};
