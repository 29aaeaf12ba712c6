# ruff: noqa: E501 - report pages and their sentences are kept on one line each
"""Invented 10-K-like report pages, each with a conversation of 4-6 turns in an analyst's
wording (issue 12, ADR 0068): a segment table, a roll-forward, a performance graph on a base of
100, quarters across the top, change and percent columns, bracketed negatives, thousands beside
millions, years down the side, figures stated only in the text. A second round of 15 pages
(ADR 0074) follows the first 17: price, tax-rate and debt tables, roll-forwards by column,
per-share rows, scales in the row labels, minus signs and "2019 vs 2018 % change" columns. A
third round of 14 pages (ADR 0079) follows: a loss triangle, bank margin and capital tables,
occupancy and lease expirations, customers by class, a store roll-forward, quarter rows,
months across the top, segment columns, a revenue mix with "% of total" columns and a
cash-flow summary, 5-7 turns each. Nothing here comes from a data
set; the pages, companies and figures are made up.

Each page is a dialogue in the shape engine/evaluate/convfinqa.py reads (table, text before and
after it, turns with their gold answer and program), so a probe runs exactly as the evaluation
runs a dialogue: one ConversationSession scoped to the page's entity, over the store that
`dialogue_store` builds with engine/tables.py."""

from __future__ import annotations

from typing import Any

PAGES: list[dict[str, Any]] = []


def P(
    name: str,
    table: list[list[str]],
    pre: str,
    post: str,
    turns: list[tuple[str, float, str]],
) -> None:
    PAGES.append(
        {
            "id": f"Single_{name}/page_1.pdf-1",
            "table": table,
            "pre_text": pre,
            "post_text": post,
            "turns": [{"question": q, "answer": a, "program": prog} for q, a, prog in turns],
            "split": "probe",
        }
    )


P(
    "SEGS/2019",
    [
        ["", "2019", "2018", "2017"],
        ["Industrial Products", "$ 1,240", "$ 1,105", "$ 980"],
        ["Consumer Goods", "865", "910", "902"],
        ["Healthcare", "395", "341", "288"],
        ["Total net sales", "$ 2,500", "$ 2,356", "$ 2,170"],
    ],
    "Our business is organised in three reportable segments. Net sales by segment were as follows ( in millions ) :",
    "Healthcare sales rose on demand for infusion devices.",
    [
        ("what were net sales of the healthcare segment in 2019?", 395, "395"),
        ("and the year before?", 341, "341"),
        ("what was the change?", 54, "subtract(395, 341)"),
        (
            "what's that as a percentage of the 2018 figure?",
            0.15836,
            "subtract(395, 341), divide(#0, 341)",
        ),
        (
            "what share of total net sales did healthcare make up in 2019?",
            0.158,
            "divide(395, 2500)",
        ),
    ],
)

P(
    "ALLOW/2020",
    [
        ["", "2020", "2019", "2018"],
        ["balance at beginning of year", "$ 4,812", "$ 4,305", "$ 3,990"],
        ["provision charged to expense", "1,226", "1,478", "1,102"],
        ["write-offs net of recoveries", "( 1,034 )", "( 971 )", "( 787 )"],
        ["balance at end of year", "$ 5,004", "$ 4,812", "$ 4,305"],
    ],
    "the following table presents the changes in the allowance for doubtful accounts ( in thousands ) :",
    "",
    [
        ("what was the allowance balance at the end of 2020?", 5004, "5004"),
        ("and at the start of that year?", 4812, "4812"),
        ("what was the net increase?", 192, "subtract(5004, 4812)"),
        (
            "what percentage growth does that represent?",
            0.0399,
            "subtract(5004, 4812), divide(#0, 4812)",
        ),
        ("what were write-offs in 2019?", 971, "971"),
        ("how much did the provision exceed write-offs that year?", 507, "subtract(1478, 971)"),
    ],
)

P(
    "HLOG/2019",
    [
        ["", "12/31/2014", "12/31/2015", "12/31/2016", "12/31/2017", "12/31/2018", "12/31/2019"],
        [
            "harbor logistics inc .",
            "$ 100.00",
            "$ 108.42",
            "$ 121.77",
            "$ 139.05",
            "$ 126.30",
            "$ 158.64",
        ],
        ["s&p 500 index", "100.00", "101.38", "113.51", "138.29", "132.23", "173.86"],
        ["peer group", "100.00", "96.12", "110.48", "129.87", "118.45", "147.20"],
    ],
    "the graph below compares the cumulative five-year total return of our common stock with the s&p 500 index and a peer group . the graph assumes $ 100 was invested on december 31 , 2014 and that all dividends were reinvested .",
    "",
    [
        ("what was the value of harbor logistics stock at the end of 2019?", 158.64, "158.64"),
        ("what is the net change from the 2014 value?", 58.64, "subtract(158.64, const_100)"),
        (
            "and what is that as a percent of the initial investment?",
            0.5864,
            "subtract(158.64, const_100), divide(#0, const_100)",
        ),
        ("what was the s&p 500 value in 2019?", 173.86, "173.86"),
        ("what was its change since 2014?", 73.86, "subtract(173.86, const_100)"),
        (
            "what was that as a percentage of the 2014 value?",
            0.7386,
            "subtract(173.86, const_100), divide(#0, const_100)",
        ),
    ],
)

P(
    "QTRS/2019",
    [
        ["2019", "first quarter", "second quarter", "third quarter", "fourth quarter"],
        ["revenues", "$ 612", "$ 655", "$ 701", "$ 744"],
        ["operating income", "88", "97", "110", "121"],
        ["net income", "61", "69", "78", "86"],
    ],
    "quarterly financial data ( unaudited ) ( in millions ) :",
    "",
    [
        ("what were revenues in the third quarter?", 701, "701"),
        ("and in the fourth?", 744, "744"),
        ("what was the sum of those two quarters?", 1445, "add(701, 744)"),
        ("what was operating income in the second quarter?", 97, "97"),
        ("what was that as a share of second quarter revenues?", 0.14809, "divide(97, 655)"),
    ],
)

P(
    "OPEX/2021",
    [
        ["", "2021", "2020", "change", "% change"],
        ["research and development", "$ 412.6", "$ 380.1", "$ 32.5", "8.6%"],
        ["selling general and administrative", "655.0", "671.3", "( 16.3 )", "( 2.4 )%"],
        ["amortization of intangibles", "48.2", "51.9", "( 3.7 )", "( 7.1 )%"],
        ["total operating expenses", "$ 1,115.8", "$ 1,103.3", "$ 12.5", "1.1%"],
    ],
    "selected operating expenses were as follows ( dollars in millions ) :",
    "",
    [
        ("what were r&d expenses in 2021?", 412.6, "412.6"),
        ("and in 2020?", 380.1, "380.1"),
        ("what was the difference between the two?", 32.5, "subtract(412.6, 380.1)"),
        (
            "what portion of total operating expenses did r&d represent in 2021?",
            0.36978,
            "divide(412.6, 1115.8)",
        ),
        ("what was the ratio of sg&a to r&d in 2020?", 1.76612, "divide(671.3, 380.1)"),
    ],
)

P(
    "OTHINC/2018",
    [
        ["", "2018", "2017"],
        ["interest income", "$ 2,145", "$ 1,380"],
        ["interest expense", "( 8,920 )", "( 9,415 )"],
        ["foreign currency losses", "( 611 )", "( 244 )"],
        ["other net", "320", "( 75 )"],
        ["total other income ( expense ) net", "$ -7,066 ( 7,066 )", "$ -8,354 ( 8,354 )"],
    ],
    "other income ( expense ) , net consisted of the following ( in thousands ) :",
    "",
    [
        ("what was interest expense in 2018?", 8920, "8920"),
        ("and in 2017?", 9415, "9415"),
        ("what was the change?", -495, "subtract(8920, 9415)"),
        ("what was interest income in 2018?", 2145, "2145"),
        ("what was the total of interest income over 2017 and 2018?", 3525, "add(2145, 1380)"),
    ],
)

P(
    "REPO/2019",
    [
        ["", "2019", "2018"],
        ["dividends declared per share", "$ 1.64", "$ 1.48"],
        ["dividends paid ( in thousands )", "$ 71,350", "$ 65,020"],
    ],
    "during 2019 , we repurchased 2.4 million shares of our common stock at an aggregate cost of $ 118.6 million . in 2018 , we repurchased 1.9 million shares for $ 84.2 million . dividends were as follows :",
    "",
    [
        ("how much was spent on share repurchases in 2019?", 118.6, "118.6"),
        ("what were dividends paid in 2019?", 71350, "71350"),
        ("and in 2018?", 65020, "65020"),
        (
            "what was the growth rate in dividends declared per share from 2018 to 2019?",
            0.10811,
            "subtract(1.64, 1.48), divide(#0, 1.48)",
        ),
    ],
)

P(
    "LEASE/2019",
    [
        ["2020", "$ 145"],
        ["2021", "132"],
        ["2022", "118"],
        ["2023", "97"],
        ["2024", "80"],
        ["thereafter", "310"],
        ["total minimum lease payments", "$ 882"],
    ],
    "future minimum lease payments under non-cancelable operating leases as of december 31 , 2019 are as follows ( in millions ) :",
    "",
    [
        ("what are the minimum lease payments due in 2021?", 132, "132"),
        ("and in 2022?", 118, "118"),
        ("what is the total of the two?", 250, "add(132, 118)"),
        (
            "what portion of total minimum lease payments is due thereafter?",
            0.35147,
            "divide(310, 882)",
        ),
        ("what percentage of the total is due in 2020?", 0.1644, "divide(145, 882)"),
    ],
)

P(
    "GEO/2022",
    [
        ["", "2022", "2021"],
        ["revenue:", "", ""],
        ["north america", "$ 3,410", "$ 3,025"],
        ["international", "1,870", "1,644"],
        ["total revenue", "5,280", "4,669"],
        ["operating income:", "", ""],
        ["north america", "512", "470"],
        ["international", "198", "151"],
        ["total operating income", "710", "621"],
    ],
    "results by geographic segment were as follows ( in millions ) :",
    "",
    [
        ("what was international revenue in 2022?", 1870, "1870"),
        ("and its operating income?", 198, "198"),
        ("what was the operating margin?", 0.10588, "divide(198, 1870)"),
        ("what was international operating income in 2021?", 151, "151"),
        ("what was the percentage change?", 0.31126, "subtract(198, 151), divide(#0, 151)"),
    ],
)

P(
    "OILP/2017",
    [
        ["", "2017", "2016", "2015"],
        ["production ( mboe per day )", "312", "298", "287"],
        ["average realized price per boe", "$ 41.20", "$ 33.85", "$ 38.10"],
        ["lease operating expense per boe", "$ 9.75", "$ 10.40", "$ 11.05"],
    ],
    "selected operating statistics :",
    "",
    [
        ("what was the average realized price in 2017?", 41.2, "41.2"),
        ("what about in 2015?", 38.1, "38.1"),
        (
            "what was the percentage change between those years?",
            0.08136,
            "subtract(41.2, 38.1), divide(#0, 38.1)",
        ),
        ("what was production in 2016?", 298, "298"),
        ("how much did it grow by 2017?", 14, "subtract(312, 298)"),
    ],
)

P(
    "CAPEX/2016",
    [
        ["", "2016", "2015"],
        ["cash provided by operating activities", "$ 1,210", "$ 1,094"],
        ["cash used in investing activities", "( 512 )", "( 447 )"],
        ["cash used in financing activities", "( 604 )", "( 588 )"],
    ],
    "capital expenditures were $ 426 million in 2016 , compared with $ 389 million in 2015 . cash flows were as follows ( in millions ) :",
    "",
    [
        ("what were capital expenditures in 2016?", 426, "426"),
        ("and in 2015?", 389, "389"),
        ("what is the change?", 37, "subtract(426, 389)"),
        ("and in percentage?", 0.09512, "subtract(426, 389), divide(#0, 389)"),
        ("what was cash provided by operating activities in 2016?", 1210, "1210"),
        ("what portion of it was spent on capital expenditures?", 0.35207, "divide(426, 1210)"),
    ],
)

P(
    "OBLIG/2019",
    [
        [
            "contractual obligations",
            "total",
            "less than 1 year",
            "1-3 years",
            "3-5 years",
            "more than 5 years",
        ],
        ["long-term debt", "$ 2,750", "$ 250", "$ 600", "$ 900", "$ 1,000"],
        ["interest payments", "640", "110", "190", "160", "180"],
        ["operating leases", "410", "85", "140", "95", "90"],
        ["total", "$ 3,800", "$ 445", "$ 930", "$ 1,155", "$ 1,270"],
    ],
    "the following table summarizes our contractual obligations at december 31 , 2019 ( in millions ) :",
    "",
    [
        ("how much long-term debt is due in less than 1 year?", 250, "250"),
        ("what is the total long-term debt?", 2750, "2750"),
        ("what percentage of it is due within a year?", 0.09091, "divide(250, 2750)"),
        (
            "what portion of total contractual obligations is from operating leases?",
            0.10789,
            "divide(410, 3800)",
        ),
    ],
)

P(
    "OPTS/2019",
    [
        ["", "shares ( in thousands )", "weighted average exercise price"],
        ["outstanding at december 31 2018", "3,420", "$ 28.15"],
        ["granted", "610", "41.30"],
        ["exercised", "( 745 )", "22.60"],
        ["forfeited", "( 95 )", "33.70"],
        ["outstanding at december 31 2019", "3,190", "$ 31.64"],
    ],
    "stock option activity for 2019 was as follows :",
    "",
    [
        ("how many options were outstanding at the end of 2019?", 3190, "3190"),
        ("and at the end of 2018?", 3420, "3420"),
        ("what was the net change?", -230, "subtract(3190, 3420)"),
        ("what was the percent change?", -0.06725, "subtract(3190, 3420), divide(#0, 3420)"),
        ("how many options were exercised?", 745, "745"),
        ("what was their weighted average exercise price?", 22.6, "22.6"),
    ],
)

P(
    "RATES/2020",
    [
        ["", "2020", "2019", "2018"],
        ["discount rate", "3.1% ( 3.1 % )", "4.2% ( 4.2 % )", "3.6% ( 3.6 % )"],
        ["expected return on plan assets", "6.5% ( 6.5 % )", "6.75% ( 6.75 % )", "7.0% ( 7.0 % )"],
        ["rate of compensation increase", "3.0% ( 3.0 % )", "3.25% ( 3.25 % )", "3.25% ( 3.25 % )"],
    ],
    "the weighted-average assumptions used to determine benefit obligations were as follows :",
    "",
    [
        ("what was the discount rate in 2020?", 3.1, "3.1"),
        ("and in 2019?", 4.2, "4.2"),
        ("what was the expected return on plan assets in 2018?", 7.0, "7.0"),
        ("and in 2020?", 6.5, "6.5"),
        ("what is the difference between the two?", -0.5, "subtract(6.5, 7.0)"),
    ],
)

P(
    "INCST/2016",
    [
        ["( in millions except per share data )", "2016", "2015", "2014"],
        ["net revenues", "$ 9,402", "$ 8,875", "$ 8,310"],
        ["cost of revenues", "5,731", "5,512", "5,240"],
        ["gross profit", "3,671", "3,363", "3,070"],
        ["net income", "$ 1,044", "$ 921", "$ 812"],
        ["diluted earnings per share", "$ 2.81", "$ 2.43", "$ 2.11"],
    ],
    "selected financial data :",
    "",
    [
        ("what was gross profit in 2016?", 3671, "3671"),
        ("what percentage of net revenues was it?", 0.39045, "divide(3671, 9402)"),
        ("what was net income in 2015?", 921, "921"),
        (
            "what was the average net income over 2014 through 2016?",
            925.66667,
            "add(1044, 921), add(#0, 812), divide(#1, const_3)",
        ),
        ("what were diluted earnings per share in 2014?", 2.11, "2.11"),
    ],
)

P(
    "BUYB/2013",
    [
        [
            "year",
            "shares repurchased ( millions )",
            "average price per share",
            "total cost ( millions )",
        ],
        ["2013", "4.2", "$ 52.10", "$ 218.8"],
        ["2012", "3.6", "47.35", "170.5"],
        ["2011", "5.0", "40.80", "204.0"],
    ],
    "share repurchases under our program were as follows :",
    "",
    [
        ("how many shares were repurchased in 2012?", 3.6, "3.6"),
        ("at what average price?", 47.35, "47.35"),
        ("what was the total cost in 2013?", 218.8, "218.8"),
        ("how much more was spent in 2013 than in 2011?", 14.8, "subtract(218.8, 204.0)"),
        (
            "what was the total cost over the three years?",
            593.3,
            "add(218.8, 170.5), add(#0, 204.0)",
        ),
    ],
)

P(
    "PRSV/2019",
    [
        [
            "( dollars in thousands )",
            "year ended june 30 2019",
            "year ended june 30 2018",
            "increase ( decrease )",
        ],
        ["product revenue", "$ 84,215", "$ 76,930", "$ 7,285"],
        ["service revenue", "31,402", "33,118", "-1,716 ( 1,716 )"],
        ["total revenue", "$ 115,617", "$ 110,048", "$ 5,569"],
    ],
    "revenue by type was as follows :",
    "",
    [
        ("what was service revenue in fiscal 2019?", 31402, "31402"),
        ("what was it the prior year?", 33118, "33118"),
        (
            "what percentage of total revenue did service revenue represent in 2018?",
            0.30094,
            "divide(33118, 110048)",
        ),
        ("what was product revenue's growth rate?", 0.0947, "divide(7285, 76930)"),
    ],
)


# Round two (ADR 0074): a quarterly price table, a tax-rate reconciliation, debt with its rates,
# a pension roll-forward, buy-backs by month, per-share rows, a corporate line, years as rows,
# reserve and goodwill roll-forwards by column, figures in the text, scales in the row labels,
# minus signs, "2019 vs 2018 % change" columns, a liquidity table and operating statistics.

P(
    "STKPX/2019",
    [
        ["quarter ended", "high", "low", "dividends declared"],
        ["march 31 2019", "$ 48.20", "$ 41.15", "$ 0.22"],
        ["june 30 2019", "52.75", "46.30", "0.22"],
        ["september 30 2019", "55.10", "49.85", "0.24"],
        ["december 31 2019", "58.40", "51.60", "0.24"],
    ],
    "the table below sets forth the high and low sales prices of our common stock on the new york stock exchange and the dividends declared for each quarter of 2019 :",
    "",
    [
        ("what was the high price in the quarter ended june 30 2019?", 52.75, "52.75"),
        ("and the low?", 46.3, "46.30"),
        ("what was the spread between the two?", 6.45, "subtract(52.75, 46.30)"),
        ("what was the high in the december quarter?", 58.4, "58.40"),
        (
            "how much did the high rise from the march quarter to the december quarter, in percent?",
            0.21162,
            "subtract(58.40, 48.20), divide(#0, 48.20)",
        ),
        (
            "what were dividends declared over the four quarters combined?",
            0.92,
            "add(0.22, 0.22), add(#0, 0.24), add(#1, 0.24)",
        ),
    ],
)

P(
    "TAXR/2020",
    [
        ["", "2020", "2019", "2018"],
        ["statutory federal income tax rate", "21.0 %", "21.0 %", "21.0 %"],
        ["state income taxes net of federal benefit", "2.3", "2.1", "1.9"],
        ["foreign rate differential", "( 1.4 )", "( 1.1 )", "( 0.8 )"],
        ["research tax credits", "( 0.9 )", "( 0.7 )", "( 0.6 )"],
        ["other net", "0.4", "( 0.2 )", "0.3"],
        ["effective income tax rate", "21.4 %", "21.1 %", "21.8 %"],
    ],
    "a reconciliation of the statutory federal income tax rate to our effective income tax rate is as follows :",
    "",
    [
        ("what was the effective tax rate in 2020?", 21.4, "21.4"),
        ("and in 2018?", 21.8, "21.8"),
        ("by how many points did it fall?", -0.4, "subtract(21.4, 21.8)"),
        ("what did state income taxes add to the rate in 2019?", 2.1, "2.1"),
        ("and research tax credits that year?", -0.7, "-0.7"),
        (
            "what was the effective rate less the statutory rate in 2019?",
            0.1,
            "subtract(21.1, 21.0)",
        ),
    ],
)

P(
    "DEBT/2021",
    [
        ["", "interest rate", "2021", "2020"],
        ["3.25 % senior notes due 2024", "3.25 %", "$ 500", "$ 500"],
        ["4.10 % senior notes due 2027", "4.10 %", "750", "750"],
        ["term loan due 2023", "2.05 %", "300", "450"],
        ["total debt", "", "1,550", "1,700"],
        ["less current portion", "", "( 150 )", "( 150 )"],
        ["long-term debt", "", "$ 1,400", "$ 1,550"],
    ],
    "our outstanding debt at december 31 was as follows ( in millions ) :",
    "",
    [
        ("what was the term loan balance at the end of 2021?", 300, "300"),
        ("and a year earlier?", 450, "450"),
        ("what was the decrease?", -150, "subtract(300, 450)"),
        (
            "what portion of total debt did the notes due 2027 make up in 2021?",
            0.48387,
            "divide(750, 1550)",
        ),
        ("what interest rate do the notes due 2024 carry?", 3.25, "3.25"),
        ("what was total debt in 2021 less the current portion?", 1400, "subtract(1550, 150)"),
    ],
)

P(
    "PENS/2019",
    [
        ["( in millions )", "2019", "2018"],
        ["benefit obligation at beginning of year", "$ 2,845", "$ 3,012"],
        ["service cost", "42", "47"],
        ["interest cost", "118", "109"],
        ["actuarial ( gain ) loss", "265", "( 196 )"],
        ["benefits paid", "( 131 )", "( 127 )"],
        ["benefit obligation at end of year", "$ 3,139", "$ 2,845"],
    ],
    "the following table sets forth the change in the projected benefit obligation of our defined benefit pension plans :",
    "",
    [
        ("what was the benefit obligation at the end of 2019?", 3139, "3139"),
        ("and at the end of 2018?", 2845, "2845"),
        ("by how much did it grow?", 294, "subtract(3139, 2845)"),
        ("what were service cost and interest cost combined in 2019?", 160, "add(42, 118)"),
        (
            "how many times the service cost was the interest cost that year?",
            2.80952,
            "divide(118, 42)",
        ),
        ("what were benefits paid in 2018?", 127, "127"),
    ],
)

P(
    "REPM/2021",
    [
        [
            "period",
            "total number of shares purchased",
            "average price paid per share",
            "total number of shares purchased as part of publicly announced plans",
            "approximate dollar value of shares that may yet be purchased ( in millions )",
        ],
        ["october 1 - october 31 2021", "412,500", "$ 63.18", "412,500", "$ 824.0"],
        ["november 1 - november 30 2021", "388,200", "$ 66.45", "388,200", "$ 798.2"],
        ["december 1 - december 31 2021", "295,000", "$ 68.02", "295,000", "$ 778.1"],
        ["total", "1,095,700", "$ 65.55", "1,095,700", ""],
    ],
    "the following table provides information about our purchases of common stock during the quarter ended december 31 , 2021 :",
    "",
    [
        ("how many shares were purchased in november?", 388200, "388200"),
        ("at what average price per share?", 66.45, "66.45"),
        ("and how many in december?", 295000, "295000"),
        (
            "how many fewer shares were bought in december than in october?",
            117500,
            "subtract(412500, 295000)",
        ),
        (
            "what percentage of the quarter's total shares were bought in october?",
            0.37647,
            "divide(412500, 1095700)",
        ),
    ],
)

P(
    "INCPS/2020",
    [
        ["( in thousands except per share amounts )", "2020", "2019"],
        ["revenue", "$ 1,284,610", "$ 1,190,235"],
        ["operating income", "187,402", "162,918"],
        ["net income", "$ 131,775", "$ 112,640"],
        ["basic earnings per share", "$ 3.42", "$ 2.95"],
        ["diluted earnings per share", "$ 3.38", "$ 2.91"],
        ["weighted average diluted shares outstanding", "38,986", "38,708"],
    ],
    "consolidated statements of income data :",
    "",
    [
        ("what were diluted earnings per share in 2020?", 3.38, "3.38"),
        ("and basic?", 3.42, "3.42"),
        ("what was the difference between basic and diluted?", 0.04, "subtract(3.42, 3.38)"),
        ("what was the operating margin in 2020?", 0.14588, "divide(187402, 1284610)"),
        (
            "how much did net income grow from 2019, in percent?",
            0.16988,
            "subtract(131775, 112640), divide(#0, 112640)",
        ),
    ],
)

P(
    "SEGOI/2022",
    [
        ["", "2022", "2021", "2020"],
        ["aerospace", "$ 612", "$ 548", "$ 497"],
        ["industrial", "438", "401", "366"],
        ["energy", "( 27 )", "45", "82"],
        ["corporate and eliminations", "( 96 )", "( 88 )", "( 91 )"],
        ["total operating income", "$ 927", "$ 906", "$ 854"],
    ],
    "segment operating income ( loss ) was as follows ( in millions ) :",
    "",
    [
        ("what was operating income for aerospace in 2022?", 612, "612"),
        ("and for industrial?", 438, "438"),
        ("what was their combined total?", 1050, "add(612, 438)"),
        ("what did the energy segment earn in 2021?", 45, "45"),
        ("and in 2022?", -27, "-27"),
        (
            "what portion of total operating income came from aerospace in 2022?",
            0.66019,
            "divide(612, 927)",
        ),
    ],
)

P(
    "YRROWS/2018",
    [
        ["year", "net sales", "gross margin", "net earnings", "capital expenditures"],
        ["2018", "$ 3,842", "$ 1,305", "$ 402", "$ 188"],
        ["2017", "3,611", "1,214", "371", "165"],
        ["2016", "3,390", "1,122", "318", "171"],
    ],
    "selected financial data ( in millions ) :",
    "",
    [
        ("what were net sales in 2017?", 3611, "3611"),
        ("and gross margin that year?", 1214, "1214"),
        ("what was gross margin as a percentage of net sales?", 0.33619, "divide(1214, 3611)"),
        (
            "what was the average capital expenditure over 2016 to 2018?",
            174.66667,
            "add(188, 165), add(#0, 171), divide(#1, const_3)",
        ),
        ("what was the change in net earnings from 2016 to 2018?", 84, "subtract(402, 318)"),
    ],
)

P(
    "RESTR/2019",
    [
        ["", "severance", "facility closure", "other", "total"],
        ["balance at december 31 2017", "$ 12.4", "$ 3.1", "$ 0.8", "$ 16.3"],
        ["charges", "18.6", "5.2", "1.4", "25.2"],
        ["cash payments", "( 20.1 )", "( 4.0 )", "( 1.6 )", "( 25.7 )"],
        ["balance at december 31 2018", "10.9", "4.3", "0.6", "15.8"],
        ["charges", "6.2", "2.5", "0.3", "9.0"],
        ["cash payments", "( 11.8 )", "( 3.9 )", "( 0.7 )", "( 16.4 )"],
        ["balance at december 31 2019", "$ 5.3", "$ 2.9", "$ 0.2", "$ 8.4"],
    ],
    "activity in our restructuring reserve was as follows ( in millions ) :",
    "",
    [
        ("what was the total restructuring reserve at december 31 2019?", 8.4, "8.4"),
        ("and at december 31 2018?", 15.8, "15.8"),
        ("what was the decline?", -7.4, "subtract(8.4, 15.8)"),
        ("what portion of the 2019 balance was severance?", 0.63095, "divide(5.3, 8.4)"),
        ("what was the severance balance at december 31 2017?", 12.4, "12.4"),
    ],
)

P(
    "GWILL/2020",
    [
        ["", "consumer", "commercial", "total"],
        ["balance as of december 31 2018", "$ 1,204", "$ 862", "$ 2,066"],
        ["acquisitions", "145", "—", "145"],
        ["foreign currency translation", "( 12 )", "( 7 )", "( 19 )"],
        ["balance as of december 31 2019", "1,337", "855", "2,192"],
        ["acquisitions", "—", "310", "310"],
        ["impairment", "—", "( 95 )", "( 95 )"],
        ["foreign currency translation", "18", "9", "27"],
        ["balance as of december 31 2020", "$ 1,355", "$ 1,079", "$ 2,434"],
    ],
    "the changes in the carrying amount of goodwill by segment were as follows ( in millions ) :",
    "",
    [
        ("what was goodwill of the commercial segment at the end of 2020?", 1079, "1079"),
        ("and at the end of 2019?", 855, "855"),
        ("what was the increase?", 224, "subtract(1079, 855)"),
        (
            "what was that as a percentage of the 2019 balance?",
            0.26199,
            "subtract(1079, 855), divide(#0, 855)",
        ),
        (
            "what share of total goodwill did the consumer segment hold at the end of 2020?",
            0.5567,
            "divide(1355, 2434)",
        ),
    ],
)

P(
    "TXTREV/2021",
    [
        ["", "2021", "2020"],
        ["employees at year end", "8,450", "7,910"],
        ["retail locations", "312", "287"],
    ],
    "fiscal 2021 overview . revenue increased 12 % to $ 4.2 billion in fiscal 2021 , compared with $ 3.75 billion in fiscal 2020 . operating income rose to $ 610 million from $ 540 million a year earlier . other operating data :",
    "",
    [
        ("what was revenue in fiscal 2021?", 4.2, "4.2"),
        ("and in 2020?", 3.75, "3.75"),
        ("what was the change?", 0.45, "subtract(4.2, 3.75)"),
        ("how many employees were there at the end of 2020?", 7910, "7910"),
        (
            "what was the percentage growth in headcount in 2021?",
            0.06827,
            "subtract(8450, 7910), divide(#0, 7910)",
        ),
    ],
)

P(
    "KPIS/2019",
    [
        ["", "2019", "2018"],
        ["net cash from operations ( in thousands )", "$ 48,216", "$ 41,905"],
        ["free cash flow ( in thousands )", "22,710", "-3,415"],
        ["backlog ( in millions )", "$ 612.5", "$ 540.2"],
        ["employees", "1,845", "1,702"],
    ],
    "key performance indicators :",
    "",
    [
        ("what was free cash flow in 2018?", -3415, "-3415"),
        ("and in 2019?", 22710, "22710"),
        ("what was the change?", 26125, "subtract(22710, -3415)"),
        ("what was backlog at the end of 2019?", 612.5, "612.5"),
        (
            "what was the percent increase from 2018?",
            0.13384,
            "subtract(612.5, 540.2), divide(#0, 540.2)",
        ),
    ],
)

P(
    "SUBS/2019",
    [
        [
            "( in millions )",
            "2019",
            "2018",
            "2017",
            "2019 vs 2018 % change",
            "2018 vs 2017 % change",
        ],
        ["subscription revenue", "$ 1,420", "$ 1,185", "$ 968", "20 %", "22 %"],
        ["professional services", "215", "230", "241", "( 7 ) %", "( 5 ) %"],
        ["total revenue", "$ 1,635", "$ 1,415", "$ 1,209", "16 %", "17 %"],
    ],
    "revenue by type :",
    "",
    [
        ("what was subscription revenue in 2018?", 1185, "1185"),
        ("and in 2017?", 968, "968"),
        ("what was the change?", 217, "subtract(1185, 968)"),
        (
            "what share of total revenue was subscription revenue in 2019?",
            0.8685,
            "divide(1420, 1635)",
        ),
        ("and how much of total revenue was the rest?", 215, "subtract(1635, 1420)"),
    ],
)

P(
    "LIQ/2020",
    [
        ["( in millions )", "december 31 2020", "december 31 2019"],
        ["cash and cash equivalents", "$ 845", "$ 612"],
        ["short-term investments", "230", "305"],
        ["total current assets", "2,910", "2,655"],
        ["total current liabilities", "1,455", "1,380"],
        ["working capital", "1,455", "1,275"],
    ],
    "liquidity :",
    "",
    [
        ("what were total current assets at the end of 2020?", 2910, "2910"),
        ("and total current liabilities?", 1455, "1455"),
        ("how many times current liabilities were current assets?", 2.0, "divide(2910, 1455)"),
        ("what were cash and short-term investments combined in 2020?", 1075, "add(845, 230)"),
        (
            "what was the average of cash and cash equivalents over the two year-ends?",
            728.5,
            "add(845, 612), divide(#0, const_2)",
        ),
    ],
)

P(
    "AIRL/2018",
    [
        ["", "2018", "2017"],
        ["revenue passenger miles ( millions )", "98,450", "93,120"],
        ["available seat miles ( millions )", "117,300", "112,850"],
        ["passenger load factor", "83.9 %", "82.5 %"],
        ["fuel gallons consumed ( millions )", "1,712", "1,655"],
        ["average fuel price per gallon", "$ 2.21", "$ 1.94"],
    ],
    "operating statistics :",
    "",
    [
        ("what were revenue passenger miles in 2018?", 98450, "98450"),
        ("and available seat miles?", 117300, "117300"),
        ("what is the first divided by the second?", 0.8393, "divide(98450, 117300)"),
        (
            "what was the change in the average fuel price per gallon from 2017?",
            0.27,
            "subtract(2.21, 1.94)",
        ),
        ("what is that change as a percent of the 2017 price?", 0.13918, "divide(0.27, 1.94)"),
        (
            "and fuel gallons consumed in 2018 times the 2018 price?",
            3783.52,
            "multiply(1712, 2.21)",
        ),
    ],
)

# Round three (ADR 0079): an insurer's loss triangle and underwriting ratios, a bank's net
# interest margin and capital ratios, a REIT's occupancy by property type and lease expirations,
# a utility's customers and sales by class (one label under two captions), a store count
# roll-forward, quarters as rows of two years, buy-backs with the months across the top,
# segments as columns, "( in millions , except per share data )", a revenue mix with "% of total"
# columns, and a cash-flow summary with bracketed negatives.

P(
    "TRIANG/2021",
    [
        ["accident year", "2017", "2018", "2019", "2020", "2021"],
        ["2017", "$ 412", "$ 405", "$ 398", "$ 401", "$ 399"],
        ["2018", "", "448", "455", "460", "458"],
        ["2019", "", "", "470", "462", "466"],
        ["2020", "", "", "", "495", "503"],
        ["2021", "", "", "", "", "521"],
        ["total", "", "", "", "", "$ 2,347"],
    ],
    "the following table presents incurred losses and allocated loss adjustment expenses , net of reinsurance , by accident year as of each year end ( in millions ) :",
    "favorable development on the 2017 accident year reflected lower than expected claim severity .",
    [
        ("what were incurred losses for accident year 2019 as of 2021?", 466, "466"),
        ("and as first reported in 2019?", 470, "470"),
        ("what was the change?", -4, "subtract(466, 470)"),
        (
            "how much has the 2017 accident year developed from its initial estimate through 2021?",
            -13,
            "subtract(399, 412)",
        ),
        (
            "what is that as a percent of the initial estimate?",
            -0.03155,
            "subtract(399, 412), divide(#0, 412)",
        ),
        (
            "what share of the 2021 total did the 2021 accident year make up?",
            0.22199,
            "divide(521, 2347)",
        ),
    ],
)

P(
    "NIM/2022",
    [
        [
            "( dollars in millions )",
            "2022 average balance",
            "2022 interest",
            "2022 yield / rate",
            "2021 average balance",
            "2021 interest",
            "2021 yield / rate",
        ],
        ["loans", "$ 18,420", "$ 842", "4.57 %", "$ 17,105", "$ 701", "4.10 %"],
        ["investment securities", "6,310", "148", "2.35 %", "6,980", "129", "1.85 %"],
        ["total interest-earning assets", "24,730", "990", "4.00 %", "24,085", "830", "3.45 %"],
        ["interest-bearing deposits", "15,240", "152", "1.00 %", "14,880", "74", "0.50 %"],
        ["net interest income", "", "$ 838", "", "", "$ 756", ""],
        ["net interest margin", "", "", "3.39 %", "", "", "3.14 %"],
    ],
    "the following table presents average balances , interest income and expense , and the related yields and rates :",
    "the margin widened as loans repriced faster than deposits .",
    [
        ("what was the net interest margin in 2022?", 3.39, "3.39"),
        ("and in the prior year?", 3.14, "3.14"),
        ("by how many percentage points did it widen?", 0.25, "subtract(3.39, 3.14)"),
        ("what was the yield on loans in 2022?", 4.57, "4.57"),
        (
            "what was the spread between that and the rate paid on interest-bearing deposits?",
            3.57,
            "subtract(4.57, 1.00)",
        ),
        (
            "how much did net interest income grow, in percent?",
            0.10847,
            "subtract(838, 756), divide(#0, 756)",
        ),
        ("and how much did the average balance of loans rise?", 1315, "subtract(18420, 17105)"),
    ],
)

P(
    "REITOCC/2020",
    [
        [
            "property type",
            "number of properties",
            "rentable square feet ( in thousands )",
            "occupancy 2020",
            "occupancy 2019",
        ],
        ["office", "42", "9,850", "86.4 %", "91.2 %"],
        ["industrial", "67", "14,320", "97.8 %", "96.5 %"],
        ["retail", "23", "3,410", "88.9 %", "92.7 %"],
        ["total / weighted average", "132", "27,580", "92.6 %", "94.1 %"],
    ],
    "our consolidated portfolio by property type at december 31 :",
    "",
    [
        ("what was office occupancy at the end of 2020?", 86.4, "86.4"),
        ("and a year earlier?", 91.2, "91.2"),
        ("how many percentage points did it drop?", -4.8, "subtract(86.4, 91.2)"),
        (
            "what share of total rentable square feet is industrial?",
            0.51922,
            "divide(14320, 27580)",
        ),
        ("how many office and retail properties are there combined?", 65, "add(42, 23)"),
        ("what is the average square footage per office property?", 234.52381, "divide(9850, 42)"),
    ],
)

P(
    "UTIL/2021",
    [
        ["", "2021", "2020", "2019"],
        ["electric customers ( at year end ) :", "", "", ""],
        ["residential", "1,284,510", "1,271,032", "1,259,877"],
        ["commercial", "162,344", "160,918", "159,201"],
        ["industrial", "3,872", "3,905", "3,941"],
        ["total customers", "1,450,726", "1,435,855", "1,423,019"],
        ["electric sales ( gwh ) :", "", "", ""],
        ["residential", "14,218", "14,630", "13,902"],
        ["commercial", "12,905", "11,870", "12,744"],
        ["industrial", "9,113", "8,402", "9,287"],
        ["total retail sales", "36,236", "34,902", "35,933"],
    ],
    "customers and retail sales by customer class were as follows :",
    "industrial sales recovered in 2021 as customers restored production .",
    [
        (
            "how many residential customers did the utility have at the end of 2021?",
            1284510,
            "1284510",
        ),
        ("and how many gwh were sold to residential customers that year?", 14218, "14218"),
        ("what were industrial sales in 2021?", 9113, "9113"),
        ("how much did they grow from 2020?", 711, "subtract(9113, 8402)"),
        ("and in percent?", 0.08462, "subtract(9113, 8402), divide(#0, 8402)"),
        (
            "what portion of total retail sales did industrial make up in 2021?",
            0.25149,
            "divide(9113, 36236)",
        ),
        ("and in 2020?", 0.24073, "divide(8402, 34902)"),
    ],
)

P(
    "STORES/2022",
    [
        ["", "2022", "2021", "2020"],
        ["stores at beginning of year", "1,148", "1,122", "1,109"],
        ["opened", "64", "51", "38"],
        ["closed", "( 29 )", "( 25 )", "( 25 )"],
        ["stores at end of year", "1,183", "1,148", "1,122"],
        ["selling square footage at end of year ( in millions )", "41.2", "40.1", "39.3"],
    ],
    "the following table sets forth our store activity :",
    "",
    [
        ("how many stores were opened in 2022?", 64, "64"),
        ("and how many were closed?", 29, "29"),
        ("what was the net number of new stores?", 35, "subtract(64, 29)"),
        ("how many stores did the company operate at the end of 2022?", 1183, "1183"),
        (
            "what was the percent increase in the store count over the year?",
            0.03049,
            "subtract(1183, 1148), divide(#0, 1148)",
        ),
        (
            "how many stores were closed over the three years in total?",
            79,
            "add(29, 25), add(#0, 25)",
        ),
    ],
)

P(
    "QROWS/2021",
    [
        [
            "( in millions , except per share data )",
            "net sales",
            "gross profit",
            "net income",
            "diluted earnings per share",
        ],
        ["2021", "", "", "", ""],
        ["first quarter", "$ 1,412", "$ 512", "$ 88", "$ 0.71"],
        ["second quarter", "1,538", "566", "104", "0.84"],
        ["third quarter", "1,605", "590", "97", "0.78"],
        ["fourth quarter", "1,874", "702", "141", "1.14"],
        ["2020", "", "", "", ""],
        ["first quarter", "$ 1,301", "$ 455", "$ 71", "$ 0.57"],
        ["second quarter", "1,196", "402", "52", "0.42"],
        ["third quarter", "1,447", "521", "90", "0.73"],
        ["fourth quarter", "1,702", "628", "122", "0.99"],
    ],
    "selected quarterly financial data ( unaudited ) :",
    "",
    [
        ("what were net sales in the fourth quarter of 2021?", 1874, "1874"),
        ("and in the fourth quarter of 2020?", 1702, "1702"),
        ("what was the percent change?", 0.10106, "subtract(1874, 1702), divide(#0, 1702)"),
        (
            "what was net income for the full year 2021?",
            430,
            "add(88, 104), add(#0, 97), add(#1, 141)",
        ),
        ("what was the gross margin in the fourth quarter of 2021?", 0.3746, "divide(702, 1874)"),
        (
            "how did diluted eps change from the first to the fourth quarter of 2021?",
            0.43,
            "subtract(1.14, 0.71)",
        ),
    ],
)

P(
    "BUYCOL/2022",
    [
        ["", "october 2022", "november 2022", "december 2022", "fourth quarter 2022"],
        ["shares repurchased ( in thousands )", "1,210", "985", "1,402", "3,597"],
        ["average price paid per share", "$ 42.16", "$ 45.80", "$ 44.05", "$ 43.89"],
        ["amount spent ( in millions )", "$ 51.0", "$ 45.1", "$ 61.8", "$ 157.9"],
    ],
    "repurchases of our common stock in the fourth quarter of 2022 were as follows :",
    "",
    [
        ("how many shares did the company buy back in november 2022?", 985, "985"),
        ("at what average price?", 45.80, "45.80"),
        ("and in december?", 44.05, "44.05"),
        ("how much more was spent in december than in october?", 10.8, "subtract(61.8, 51.0)"),
        (
            "what share of the fourth quarter's repurchased shares was bought in december?",
            0.38977,
            "divide(1402, 3597)",
        ),
        (
            "what was the average monthly number of shares repurchased?",
            1199,
            "divide(3597, const_3)",
        ),
    ],
)

P(
    "SEGCOL/2021",
    [
        ["( in millions )", "aerospace", "defense", "industrial", "corporate", "total"],
        ["net sales", "$ 3,412", "$ 2,087", "$ 1,560", "$ —", "$ 7,059"],
        ["operating income ( loss )", "528", "301", "142", "( 96 )", "875"],
        ["depreciation and amortization", "114", "62", "71", "9", "256"],
        ["capital expenditures", "131", "45", "58", "12", "246"],
        ["total assets", "4,870", "2,915", "1,884", "1,102", "10,771"],
    ],
    "segment information for the year ended december 31 , 2021 was as follows :",
    "",
    [
        ("what were net sales of the defense segment?", 2087, "2087"),
        ("and its operating income?", 301, "301"),
        ("what was its operating margin?", 0.14423, "divide(301, 2087)"),
        ("what was aerospace's operating margin?", 0.15475, "divide(528, 3412)"),
        (
            "how much more did aerospace spend on capital expenditures than industrial?",
            73,
            "subtract(131, 58)",
        ),
        ("what share of total assets did corporate hold?", 0.10231, "divide(1102, 10771)"),
        (
            "how many times larger were aerospace sales than industrial sales?",
            2.18718,
            "divide(3412, 1560)",
        ),
    ],
)

P(
    "LOSSYR/2020",
    [
        ["( in millions , except per share data )", "2020", "2019", "2018"],
        ["revenue", "$ 5,318", "$ 5,602", "$ 5,240"],
        ["cost of revenue", "3,455", "3,538", "3,311"],
        ["gross profit", "1,863", "2,064", "1,929"],
        ["gross margin", "35.0 %", "36.8 %", "36.8 %"],
        ["impairment charges", "( 212 )", "—", "( 18 )"],
        ["operating income", "401", "788", "702"],
        ["net income ( loss )", "( 64 )", "512", "455"],
        ["diluted earnings ( loss ) per share", "$ ( 0.52 )", "$ 4.03", "$ 3.55"],
        ["weighted average diluted shares", "123.1", "127.0", "128.2"],
    ],
    "selected financial data :",
    "",
    [
        ("what was the net loss in 2020?", -64, "-64"),
        ("and net income the year before?", 512, "512"),
        ("what was the swing between the two years?", -576, "subtract(-64, 512)"),
        (
            "how did gross margin change in 2020, in percentage points?",
            -1.8,
            "subtract(35.0, 36.8)",
        ),
        (
            "what were impairment charges as a percent of revenue in 2020?",
            0.03986,
            "divide(212, 5318)",
        ),
        ("what was the decline in diluted shares from 2019?", -3.9, "subtract(123.1, 127.0)"),
    ],
)

P(
    "MIX/2019",
    [
        ["", "2019", "% of total", "2018", "% of total"],
        ["subscriptions", "$ 2,148", "61 %", "$ 1,702", "55 %"],
        ["professional services", "812", "23 %", "798", "26 %"],
        ["hardware", "560", "16 %", "590", "19 %"],
        ["total revenue", "$ 3,520", "100 %", "$ 3,090", "100 %"],
    ],
    "revenue by category ( dollars in thousands ) :",
    "",
    [
        ("what were subscription revenues in 2019?", 2148, "2148"),
        (
            "by how many percentage points did the subscription share of revenue rise from 2018?",
            6,
            "subtract(61, 55)",
        ),
        ("what was the growth in hardware revenue in 2019?", -30, "subtract(560, 590)"),
        ("and in percent?", -0.05085, "subtract(560, 590), divide(#0, 590)"),
        (
            "what was the combined revenue of professional services and hardware in 2019?",
            1372,
            "add(812, 560)",
        ),
        ("what is the ratio of subscriptions to that?", 1.5656, "divide(2148, 1372)"),
    ],
)

P(
    "CAPRAT/2021",
    [
        ["", "december 31 , 2021", "december 31 , 2020", "well-capitalized minimum"],
        ["common equity tier 1 capital", "$ 4,215", "$ 3,980", ""],
        ["tier 1 capital", "4,640", "4,405", ""],
        ["total capital", "5,310", "5,102", ""],
        ["risk-weighted assets", "38,420", "36,150", ""],
        ["common equity tier 1 ratio", "10.97 %", "11.01 %", "6.50 %"],
        ["tier 1 capital ratio", "12.08 %", "12.19 %", "8.00 %"],
        ["total capital ratio", "13.82 %", "14.11 %", "10.00 %"],
        ["tier 1 leverage ratio", "9.14 %", "9.36 %", "5.00 %"],
    ],
    "the bank's regulatory capital amounts ( dollars in millions ) and ratios were as follows :",
    "",
    [
        ("what was the common equity tier 1 ratio at december 31 , 2021?", 10.97, "10.97"),
        ("how far above the well-capitalized minimum was it?", 4.47, "subtract(10.97, 6.50)"),
        ("how much did risk-weighted assets grow during 2021?", 2270, "subtract(38420, 36150)"),
        ("and in percent?", 0.06279, "subtract(38420, 36150), divide(#0, 36150)"),
        ("what was the total capital ratio at the end of 2020?", 14.11, "14.11"),
        (
            "by how many basis points did it decline in 2021?",
            -29,
            "subtract(13.82, 14.11), multiply(#0, const_100)",
        ),
    ],
)

P(
    "UWRAT/2022",
    [
        ["", "2022", "2021", "2020"],
        ["net premiums earned", "$ 6,842", "$ 6,415", "$ 6,020"],
        ["losses and loss adjustment expenses", "4,517", "4,398", "4,021"],
        ["underwriting expenses", "2,018", "1,947", "1,866"],
        ["underwriting income", "307", "70", "133"],
        ["loss ratio", "66.0 %", "68.6 %", "66.8 %"],
        ["expense ratio", "29.5 %", "30.4 %", "31.0 %"],
        ["combined ratio", "95.5 %", "99.0 %", "97.8 %"],
    ],
    "property and casualty underwriting results ( dollars in millions ) :",
    "",
    [
        ("what was the combined ratio in 2022?", 95.5, "95.5"),
        ("and in the prior year?", 99.0, "99.0"),
        ("by how many points did it fall?", -3.5, "subtract(95.5, 99.0)"),
        ("what was underwriting income in 2022?", 307, "307"),
        ("how many times the 2021 figure is that?", 4.38571, "divide(307, 70)"),
        (
            "what was the growth in net premiums earned from 2020 to 2022?",
            822,
            "subtract(6842, 6020)",
        ),
        (
            "what was the average loss ratio over the three years?",
            67.13333,
            "add(66.0, 68.6), add(#0, 66.8), divide(#1, const_3)",
        ),
    ],
)

P(
    "CFSUM/2021",
    [
        ["( in thousands )", "2021", "2020"],
        ["net cash provided by operating activities", "$ 318,442", "$ 276,015"],
        ["net cash used in investing activities", "( 142,870 )", "( 98,331 )"],
        ["net cash provided by ( used in ) financing activities", "( 121,604 )", "14,220"],
        ["effect of exchange rate changes on cash", "( 3,118 )", "2,406"],
        ["net increase in cash and cash equivalents", "$ 50,850", "$ 194,310"],
    ],
    "the following table summarizes our cash flows :",
    "",
    [
        ("how much cash did operating activities provide in 2021?", 318442, "318442"),
        ("and how much was used in investing?", 142870, "142870"),
        ("what is the sum of the two?", 175572, "add(318442, -142870)"),
        ("what was the cash flow from financing activities in 2020?", 14220, "14220"),
        ("how much did it swing from 2020 to 2021?", -135824, "subtract(-121604, 14220)"),
        (
            "what was the net increase in cash in 2021 as a percent of 2020's?",
            0.2617,
            "divide(50850, 194310)",
        ),
    ],
)

P(
    "LEXP/2020",
    [
        [
            "year of lease expiration",
            "number of leases expiring",
            "square feet ( in thousands )",
            "annualized base rent ( in thousands )",
            "% of total annualized base rent",
        ],
        ["2021", "48", "1,215", "$ 28,410", "11.2 %"],
        ["2022", "57", "1,608", "36,952", "14.6 %"],
        ["2023", "41", "1,120", "27,005", "10.7 %"],
        ["2024", "39", "1,344", "31,877", "12.6 %"],
        ["2025 and thereafter", "112", "5,402", "128,890", "50.9 %"],
        ["total", "297", "10,689", "$ 253,134", "100.0 %"],
    ],
    "the following table sets forth lease expirations for our portfolio as of december 31 , 2020 :",
    "",
    [
        ("how many leases expire in 2022?", 57, "57"),
        ("how much annualized base rent do they carry?", 36952, "36952"),
        ("what is the rent per square foot on those leases?", 22.9801, "divide(36952, 1608)"),
        ("what percent of total rent expires in 2021 and 2022 together?", 25.8, "add(11.2, 14.6)"),
        (
            "how many square feet expire before 2025?",
            5287,
            "add(1215, 1608), add(#0, 1120), add(#1, 1344)",
        ),
        ("what is that as a share of the total?", 0.49462, "divide(5287, 10689)"),
    ],
)
