# ruff: noqa: RUF001 - words in other scripts are the point
"""Beauty templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== beauty | Facial Serum
pl | Serum do twarzy | z witaminą C; z kwasem hialuronowym; z retinolem na noc | Lekkie, szybko wchłaniające się serum, po którym skóra jest promienna i gładka.
uk | Сироватка для обличчя | з вітаміном C; гіалуронова; нічна з ретинолом | Легка сироватка швидко вбирається, і шкіра виглядає сяйною та гладенькою.
ru | Сыворотка для лица | с витамином C; гиалуроновая; ночная с ретинолом | Лёгкая сыворотка быстро впитывается, и кожа выглядит сияющей и гладкой.
zh-hans | 面部精华 | 维C; 玻尿酸; 视黄醇晚间 | 质地轻盈、吸收迅速，让肌肤看起来透亮光滑。
== beauty | Skincare Gift Set
pl | Zestaw prezentowy do pielęgnacji | nawilżający; w wersji podróżnej; do skóry wrażliwej | Żel do mycia, tonik i krem nawilżający w jednym pudełku na prostą codzienną pielęgnację.
uk | Подарунковий набір для догляду | зволожувальний; дорожній формат; для чутливої шкіри | Очищувальний засіб, тонік і зволожувальний крем в одній коробці для простого щоденного догляду.
ru | Подарочный набор для ухода | увлажняющий; дорожный формат; для чувствительной кожи | Очищающее средство, тоник и увлажняющий крем в одной коробке для простого ежедневного ухода.
zh-hans | 护肤礼盒 | 保湿; 旅行装; 敏感肌 | 洁面、爽肤水和保湿霜一盒搞定，日常护肤简单轻松。
== beauty | Eau de Parfum
pl | Woda perfumowana | bursztynowa; cytrusowa; cedr i wetiwer | Trwały zapach w ciężkim szklanym flakonie.
uk | Парфумована вода | бурштинова; цитрусовий цвіт; кедр і ветивер | Стійкий аромат у важкому скляному флаконі.
ru | Парфюмерная вода | амбровая; цитрусовый цвет; кедр и ветивер | Стойкий аромат в тяжёлом стеклянном флаконе.
zh-hans | 香水 | 琥珀; 柑橘花; 雪松与香根草 | 持久留香，装在厚重的玻璃瓶中。
== beauty | Face Roller
pl | Roller do twarzy | z jadeitu; z kwarcu różowego; chłodzący stalowy | Chłodny kamienny roller do kojącego masażu twarzy po oczyszczeniu.
uk | Ролер для обличчя | нефритовий; з рожевого кварцу; охолоджувальний сталевий | Прохолодний кам'яний ролер для заспокійливого масажу обличчя після очищення.
ru | Роллер для лица | нефритовый; из розового кварца; охлаждающий стальной | Прохладный каменный роллер для успокаивающего массажа лица после очищения.
zh-hans | 美容滚轮 | 玉石; 粉晶; 冰感钢 | 清凉的石材滚轮，洁面后做一次舒缓的面部按摩。
== beauty | Hair Dryer
pl | Suszarka do włosów | jonowa; podróżna; z dyfuzorem | Szybkie suszenie bez puszenia, z kilkoma ustawieniami temperatury i nawiewu.
uk | Фен | іонний; дорожній; з дифузором | Швидке сушіння, після якого волосся не пушиться, кілька режимів температури й швидкості.
ru | Фен | ионный; дорожный; с диффузором | Быстрая сушка, после которой волосы не пушатся, несколько режимов температуры и скорости.
zh-hans | 吹风机 | 负离子; 旅行; 扩散罩 | 快速吹干不毛躁，多档温度和风速可调。
== beauty | Eyeshadow Palette
pl | Paleta cieni do powiek | neutralna; zachód słońca; smoky | Dwanaście kremowych odcieni, matowych i perłowych, na dzień i na wieczór.
uk | Палетка тіней | нюдова; захід сонця; смокі | Дванадцять м'яких відтінків, матових і сяйних, для дня чи вечора.
ru | Палетка теней | нюдовая; закат; смоки | Двенадцать мягких оттенков, матовых и сияющих, для дня или вечера.
zh-hans | 眼影盘 | 大地色; 日落; 烟熏 | 十二种细腻色号，哑光与珠光兼备，白天夜晚都适用。
== beauty | Lip Care Set
pl | Zestaw do pielęgnacji ust | koloryzujący; na noc; miodowy | Odżywcze balsamy i delikatny peeling, dzięki którym usta są miękkie w każdą pogodę.
uk | Набір для догляду за губами | відтінковий; нічний; медовий | Живильні бальзами та м'який скраб, що зберігають губи м'якими за будь-якої погоди.
ru | Набор для ухода за губами | оттеночный; ночной; медовый | Питательные бальзамы и мягкий скраб сохраняют губы мягкими в любую погоду.
zh-hans | 润唇护理套装 | 有色; 夜间; 蜂蜜 | 滋润唇膏和温和磨砂膏，无论什么天气都让双唇柔软。
== beauty | Sheet Mask Pack
pl | Zestaw masek w płachcie | rozświetlających; kojących; nawilżających | Dziesięć jednorazowych masek nasączonych esencją na szybki domowy wieczór spa.
uk | Набір тканинних масок | освітлювальних; заспокійливих; зволожувальних | Десять одноразових масок, просочених есенцією, для швидкого спа-вечора вдома.
ru | Набор тканевых масок | осветляющих; успокаивающих; увлажняющих | Десять одноразовых масок, пропитанных эссенцией, для быстрого спа-вечера дома.
zh-hans | 面膜组合装 | 亮肤; 舒缓; 补水 | 十片浸满精华的一次性面膜，随时享受居家水疗之夜。
== beauty | Bath Bomb Set
pl | Zestaw kul do kąpieli | lawendowych; eukaliptusowych; cytrusowych | Musujące kule z olejkami eterycznymi i masłami zmiękczającymi skórę.
uk | Набір бомбочок для ванни | лавандових; евкаліптових; цитрусових | Шипучі бомбочки з ефірними оліями та баттерами, що пом'якшують шкіру.
ru | Набор бомбочек для ванны | лавандовых; эвкалиптовых; цитрусовых | Шипучие бомбочки с эфирными маслами и смягчающими кожу баттерами.
zh-hans | 沐浴球套装 | 薰衣草; 桉树; 柑橘 | 含精油和润肤油脂的起泡沐浴球。
== beauty | Beard Grooming Kit
pl | Zestaw do pielęgnacji brody | drzewo sandałowe; klasyczny; podróżny | Olejek i balsam do brody, szczotka z włosia dzika i grzebień w płóciennym etui.
uk | Набір для догляду за бородою | сандалове дерево; класичний; дорожній | Олія й бальзам для бороди, щітка з натуральної щетини та гребінець у полотняному чохлі.
ru | Набор для ухода за бородой | сандаловое дерево; классический; дорожный | Масло и бальзам для бороды, щётка из натуральной щетины и расчёска в холщовом чехле.
zh-hans | 胡须护理套装 | 檀香; 经典; 旅行 | 胡须油、胡须膏、猪鬃刷和梳子，装在帆布收纳袋里。
== beauty | Nail Polish Set
pl | Zestaw lakierów do paznokci | pastelowych; z efektem żelu; klasyczna czerwień | Odporne na odpryski kolory z bazą i lśniącym lakierem nawierzchniowym.
uk | Набір лаків для нігтів | пастельних; з гелевим ефектом; класичний червоний | Стійкі до сколів кольори з базою та глянцевим топом.
ru | Набор лаков для ногтей | пастельных; с гелевым эффектом; классический красный | Стойкие к сколам цвета с базой и глянцевым топом.
zh-hans | 指甲油套装 | 马卡龙色; 凝胶效果; 经典红 | 不易剥落的色彩，附底油和亮面顶油。
== beauty | Hair Straightener
pl | Prostownica do włosów | ceramiczna; mini; tytanowa | Pływające płytki i regulowana temperatura dla gładkich włosów bez szarpania.
uk | Випрямляч для волосся | керамічний; міні; титановий | Плаваючі пластини та регульована температура для гладкого волосся без смикання.
ru | Выпрямитель для волос | керамический; мини; титановый | Плавающие пластины и регулируемая температура для гладких волос без зацепов.
zh-hans | 直发器 | 陶瓷; 迷你; 钛金属 | 浮动夹板和可调温度，头发顺滑不拉扯。
"""
