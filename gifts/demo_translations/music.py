# ruff: noqa: RUF001 - words in other scripts are the point
"""Music templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== music | Acoustic Guitar
pl | Gitara akustyczna | dreadnought; parlor; podróżna | Gitara z litą płytą, ciepłym brzmieniem i wygodną, niską akcją strun.
uk | Акустична гітара | дредноут; парлор; дорожня | Гітара з масивною декою, теплим звуком і зручною низькою акцією.
ru | Акустическая гитара | дредноут; парлор; дорожная | Гитара с массивной декой, тёплым звуком и удобной низкой мензурой струн.
zh-hans | 木吉他 | 大琴身; 小琴身; 旅行 | 单板吉他，音色温暖，弦距低、易弹奏。
== music | Vinyl Record Player
pl | Gramofon | w walizce; Bluetooth; z napędem paskowym | Odtwarza płyty 33 i 45 obr./min, ma wbudowane głośniki i wyjście liniowe.
uk | Програвач вінілу | у валізі; Bluetooth; з пасовим приводом | Грає платівки на 33 і 45 об/хв, має вбудовані динаміки й лінійний вихід.
ru | Проигрыватель винила | в чемодане; Bluetooth; с пассиковым приводом | Играет пластинки на 33 и 45 об/мин, есть встроенные динамики и линейный выход.
zh-hans | 黑胶唱机 | 手提箱; 蓝牙; 皮带传动 | 支持 33 和 45 转唱片，内置音箱并带线路输出。
== music | Ukulele
pl | Ukulele | sopranowe; koncertowe; tenorowe | Jasno brzmiące, łatwe do nauki ukulele z pokrowcem i stroikiem.
uk | Укулеле | сопрано; концертне; тенор | Дзвінке укулеле, яке легко опанувати, з чохлом і тюнером.
ru | Укулеле | сопрано; концертное; тенор | Звонкое укулеле, которое легко освоить, с чехлом и тюнером.
zh-hans | 尤克里里 | 高音; 音乐会; 次中音 | 音色明亮、易学的尤克里里，附琴包和调音器。
== music | Harmonica
pl | Harmonijka | bluesowa; chromatyczna; dla początkujących | Kieszonkowy instrument z książeczką lekcji na dobry początek.
uk | Губна гармоніка | блюзова; хроматична; для початківців | Кишеньковий інструмент із буклетом уроків для початку.
ru | Губная гармошка | блюзовая; хроматическая; для начинающих | Карманный инструмент с буклетом уроков для начала.
zh-hans | 口琴 | 布鲁斯; 半音阶; 入门 | 口袋大小的乐器，附入门教程小册子。
== music | Kalimba
pl | Kalimba | 17-klawiszowa; mahoniowa; kryształowa | Pianino kciukowe o kojącym brzmieniu pozytywki.
uk | Калімба | 17 язичків; махагонова; кришталева | Пальцеве піаніно з заспокійливим звуком музичної скриньки.
ru | Калимба | 17 язычков; махагоновая; хрустальная | Пальцевое пианино с успокаивающим звуком музыкальной шкатулки.
zh-hans | 卡林巴琴 | 17 音; 桃花心木; 水晶 | 拇指琴，音色如八音盒般舒缓。
"""
