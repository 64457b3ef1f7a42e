DATE_FORMAT = "Y年n月j日"  # 2026年12月1日
MONTH_DAY_FORMAT = "n月j日 D"  # 12月1日 星期二
SHORT_DATETIME_FORMAT = "n月j日 H:i"  # 12月1日 21:30
