# ruff: noqa: RUF001 - words in other scripts are the point
"""Fashion templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== fashion | Leather Wallet
pl | Skórzany portfel | smukły; składany; z blokadą RFID | Skóra licowa, która pięknie się starzeje, z miejscem na karty i gotówkę.
uk | Шкіряний гаманець | тонкий; складаний; із захистом RFID | Натуральна шкіра найвищого ґатунку, що гарно старіє, з місцем для карток і готівки.
ru | Кожаный кошелёк | тонкий; складной; с защитой RFID | Натуральная кожа высшего качества, которая красиво стареет, с местом для карт и наличных.
zh-hans | 真皮钱包 | 纤薄; 对折; 防盗刷 | 全粒面皮革，越用越有味道，卡和现金都放得下。
== fashion | Cashmere Scarf
pl | Kaszmirowy szal | w kratę; klasyczny; oversize | Miękki, ciepły szal z czystego kaszmiru na chłodne poranki.
uk | Кашеміровий шарф | у клітинку; класичний; оверсайз | М'який теплий шарф із чистого кашеміру для прохолодних ранків.
ru | Кашемировый шарф | в клетку; классический; оверсайз | Мягкий тёплый шарф из чистого кашемира для прохладного утра.
zh-hans | 羊绒围巾 | 格纹; 经典; 宽大 | 纯羊绒围巾，柔软保暖，陪你度过微凉的清晨。
== fashion | Silk Tie
pl | Jedwabny krawat | we wzór paisley; w paski; dziergany | Ręcznie wykończony jedwabny krawat, który doda klasy każdemu garniturowi.
uk | Шовкова краватка | з пейслі; у смужку; в'язана | Шовкова краватка ручної обробки, що прикрасить будь-який костюм.
ru | Шёлковый галстук | с пейсли; в полоску; вязаный | Шёлковый галстук ручной отделки, который украсит любой костюм.
zh-hans | 真丝领带 | 佩斯利花纹; 条纹; 针织 | 手工收尾的真丝领带，让每套西装更显精神。
== fashion | Sunglasses
pl | Okulary przeciwsłoneczne | polaryzacyjne; pilotki; okrągłe | Soczewki z filtrem UV w lekkiej oprawce, która pasuje do większości twarzy.
uk | Сонцезахисні окуляри | поляризаційні; авіатори; круглі | Лінзи із захистом від УФ у легкій оправі, що пасує більшості облич.
ru | Солнцезащитные очки | поляризационные; авиаторы; круглые | Линзы с защитой от УФ в лёгкой оправе, которая подходит большинству лиц.
zh-hans | 太阳镜 | 偏光; 飞行员款; 圆框 | 防紫外线镜片配轻盈镜框，适合大多数脸型。
== fashion | Canvas Tote Bag
pl | Płócienna torba | woskowana; na co dzień; na zakupy | Pojemna, wytrzymała torba z kieszonką na klucze i telefon.
uk | Полотняна сумка-шопер | вощена; на щодень; для ринку | Містка, міцна сумка з внутрішньою кишенею для ключів і телефона.
ru | Холщовая сумка-шопер | вощёная; на каждый день; для рынка | Вместительная прочная сумка с внутренним карманом для ключей и телефона.
zh-hans | 帆布托特包 | 涂蜡; 日常; 买菜 | 宽敞耐用，内袋可放钥匙和手机。
== fashion | Knit Beanie
pl | Czapka z dzianiny | z merynosa; w warkocze; z pomponem | Przylegająca, elastyczna czapka, która grzeje uszy przez całą zimę.
uk | В'язана шапка | з мериносу; з косами; з помпоном | Щільна, еластична шапка, що гріє вуха всю зиму.
ru | Вязаная шапка | из мериноса; с косами; с помпоном | Плотно сидящая эластичная шапка, которая греет уши всю зиму.
zh-hans | 针织帽 | 美利奴; 麻花; 毛球 | 贴合有弹性，整个冬天都为耳朵保暖。
== fashion | Leather Belt
pl | Skórzany pasek | dwustronny; pleciony; klasyczny | Solidny skórzany pasek ze szczotkowaną metalową klamrą.
uk | Шкіряний ремінь | двосторонній; плетений; класичний | Міцний шкіряний ремінь із матовою металевою пряжкою.
ru | Кожаный ремень | двусторонний; плетёный; классический | Прочный кожаный ремень с матовой металлической пряжкой.
zh-hans | 真皮腰带 | 双面; 编织; 经典 | 结实的皮带，配拉丝金属扣。
== fashion | Wristwatch
pl | Zegarek na rękę | minimalistyczny; chronograf; polowy | Ponadczasowy zegarek ze szkłem z powłoką szafirową i wymiennym paskiem.
uk | Наручний годинник | мінімалістичний; хронограф; польовий | Позачасовий годинник зі склом із сапфіровим покриттям і змінним ремінцем.
ru | Наручные часы | минималистичные; хронограф; полевые | Вневременные часы со стеклом с сапфировым покрытием и сменным ремешком.
zh-hans | 手表 | 极简; 计时; 野战 | 经典耐看，蓝宝石镀膜表镜，表带可更换。
== fashion | Crossbody Bag
pl | Torebka na ramię | skórzana; nylonowa; mini | Kompaktowa torebka, która zostawia wolne ręce w mieście i w podróży.
uk | Сумка через плече | шкіряна; нейлонова; міні | Компактна сумка, що звільняє руки в місті й у подорожі.
ru | Сумка через плечо | кожаная; нейлоновая; мини | Компактная сумка, которая освобождает руки в городе и в поездке.
zh-hans | 斜挎包 | 真皮; 尼龙; 迷你 | 小巧的斜挎包，逛街旅行都能解放双手。
== fashion | Sock Gift Box
pl | Skarpetki w pudełku prezentowym | wełniane; z zabawnym wzorem; bambusowe | Cztery pary wygodnych, kolorowych skarpetek w pudełku prezentowym.
uk | Шкарпетки в подарунковій коробці | вовняні; з кумедним принтом; бамбукові | Чотири пари зручних яскравих шкарпеток у подарунковій коробці.
ru | Носки в подарочной коробке | шерстяные; с забавным принтом; бамбуковые | Четыре пары удобных ярких носков в подарочной коробке.
zh-hans | 袜子礼盒 | 羊毛; 趣味; 竹纤维 | 四双舒适多彩的袜子，装在礼盒里。
== fashion | Sneakers
pl | Sneakersy | płócienne; skórzane; retro do biegania | Sneakersy na co dzień z amortyzowaną podeszwą i czystą linią.
uk | Кросівки | текстильні; шкіряні; ретро-бігові | Кросівки на щодень з амортизованою підошвою та лаконічним силуетом.
ru | Кроссовки | текстильные; кожаные; ретро-беговые | Кроссовки на каждый день с амортизирующей подошвой и лаконичным силуэтом.
zh-hans | 运动鞋 | 帆布; 皮革; 复古跑鞋 | 日常百搭，鞋底有缓震，线条简洁。
== fashion | Rain Jacket
pl | Kurtka przeciwdeszczowa | składana do kieszeni; lekka; wodoodporna | Oddychająca kurtka z klejonymi szwami, którą można złożyć do własnej kieszeni.
uk | Дощовик | компактний; легкий; водонепроникний | Повітропроникна куртка з проклеєними швами, що складається у власну кишеню.
ru | Дождевик | компактный; лёгкий; водонепроницаемый | Дышащая куртка с проклеенными швами, которая складывается в собственный карман.
zh-hans | 雨衣夹克 | 可收纳; 轻量; 防水 | 透气外壳，压胶接缝，可收进自带口袋。
"""
