# ruff: noqa: RUF001 - words in other scripts are the point
"""Wellness templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== wellness | Meditation Cushion
pl | Poduszka do medytacji | z łuską gryki; zafu; welurowa | Stabilna poduszka, dzięki której siedzenie w medytacji jest wygodne.
uk | Подушка для медитації | з гречаним лушпинням; дзафу; оксамитова | Підтримувальна подушка, з якою сидіти в медитації зручно.
ru | Подушка для медитации | с гречневой лузгой; дзафу; бархатная | Поддерживающая подушка, с которой сидеть в медитации удобно.
zh-hans | 冥想坐垫 | 荞麦壳; 蒲团; 丝绒 | 支撑稳固，让打坐练习更舒适。
== wellness | Massage Gun
pl | Pistolet do masażu | mini; cichy; profesjonalny | Masaż perkusyjny, który w kilka minut rozluźnia napięte mięśnie.
uk | Масажний пістолет | міні; тихий; професійний | Перкусійний масаж, що за кілька хвилин розслабляє напружені м'язи.
ru | Массажный пистолет | мини; тихий; профессиональный | Перкуссионный массаж, который за несколько минут расслабляет напряжённые мышцы.
zh-hans | 筋膜枪 | 迷你; 静音; 专业 | 冲击式按摩，几分钟放松紧绷的肌肉。
== wellness | Sleep Mask
pl | Maska do spania | jedwabna; profilowana; obciążona | Całkowicie blokuje światło dla głębszego snu w domu i w podróży.
uk | Маска для сну | шовкова; анатомічна; обважнена | Повністю затуляє світло для глибшого сну вдома й у дорозі.
ru | Маска для сна | шёлковая; анатомическая; утяжелённая | Полностью блокирует свет для более глубокого сна дома и в дороге.
zh-hans | 睡眠眼罩 | 真丝; 立体; 重力 | 完全遮光，在家或旅途中都睡得更沉。
== wellness | Aromatherapy Oil Set
pl | Zestaw olejków do aromaterapii | lawendowy; relaksujący; energetyzujący | Czyste olejki eteryczne do dyfuzorów, kąpieli i masażu.
uk | Набір олій для ароматерапії | лавандовий; заспокійливий; бадьорий | Чисті ефірні олії для дифузорів, ванни й масажу.
ru | Набор масел для ароматерапии | лавандовый; успокаивающий; бодрящий | Чистые эфирные масла для диффузоров, ванны и массажа.
zh-hans | 芳疗精油套装 | 薰衣草; 舒缓; 提神 | 纯精油，可用于香薰机、泡澡和按摩。
== wellness | Sunrise Alarm Clock
pl | Budzik świetlny | inteligentny; kompaktowy; z dźwiękami | Budzi łagodnie światłem, które rozjaśnia się jak świt.
uk | Світловий будильник | розумний; компактний; зі звуками | М'яко будить світлом, що розгоряється, як світанок.
ru | Световой будильник | умный; компактный; со звуками | Мягко будит светом, который разгорается, как рассвет.
zh-hans | 日出唤醒灯 | 智能; 小巧; 自然音 | 像黎明一样渐亮的灯光，温柔地唤醒你。
== wellness | Acupressure Mat
pl | Mata do akupresury | lniana; bawełniana; podróżna | Tysiące łagodnych kolców, które pomagają uwolnić napięcie w plecach.
uk | Акупунктурний килимок | лляний; бавовняний; дорожній | Тисячі м'яких шипів допомагають зняти напругу в спині.
ru | Акупунктурный коврик | льняной; хлопковый; дорожный | Тысячи мягких шипов помогают снять напряжение в спине.
zh-hans | 指压按摩垫 | 亚麻; 纯棉; 旅行 | 成千上万个柔和的刺点，帮助释放背部紧张。
== wellness | Gratitude Journal
pl | Dziennik wdzięczności | z podpowiedziami; 5-minutowy; z ćwiczeniami uważności | Krótkie codzienne pytania, które budują spokojny nawyk wdzięczności.
uk | Щоденник вдячності | з підказками; 5-хвилинний; з вправами на усвідомленість | Короткі щоденні запитання, що формують спокійну звичку вдячності.
ru | Дневник благодарности | с подсказками; 5-минутный; с упражнениями на осознанность | Короткие ежедневные вопросы, которые формируют спокойную привычку благодарить.
zh-hans | 感恩日记 | 引导式; 五分钟; 正念 | 每天简短的提示，养成平和感恩的习惯。
== wellness | Singing Bowl
pl | Misa dźwiękowa | tybetańska; kryształowa; ręcznie kuta | Rezonująca misa z pałeczką do medytacji i relaksu dźwiękiem.
uk | Співоча чаша | тибетська; кришталева; ручної ковки | Дзвінка чаша з паличкою для медитації та звукової релаксації.
ru | Поющая чаша | тибетская; хрустальная; ручной ковки | Звонкая чаша с палочкой для медитации и звуковой релаксации.
zh-hans | 颂钵 | 藏式; 水晶; 手工锻打 | 余音悠长的颂钵配敲棒，用于冥想和声音疗愈。
== wellness | Spa Gift Basket
pl | Kosz prezentowy spa | lawendowy; eukaliptusowy; różany | Sól do kąpieli, masło do ciała i puszysty ręcznik na domowy dzień spa.
uk | Подарунковий спа-кошик | лавандовий; евкаліптовий; трояндовий | Сіль для ванни, батер для тіла й пухнастий рушник для спа-дня вдома.
ru | Подарочная спа-корзина | лавандовая; эвкалиптовая; розовая | Соль для ванны, баттер для тела и пушистое полотенце для спа-дня дома.
zh-hans | 水疗礼篮 | 薰衣草; 桉树; 玫瑰 | 浴盐、身体乳霜和柔软浴巾，在家享受水疗日。
== wellness | Heated Neck Wrap
pl | Rozgrzewający okład na kark | do mikrofalówki; elektryczny; obciążony | Kojące ciepło, które rozpuszcza napięcie karku i ramion.
uk | Грілка для шиї | для мікрохвильовки; електрична; обважнена | Заспокійливе тепло, що знімає напругу в шиї та плечах.
ru | Грелка для шеи | для микроволновки; электрическая; утяжелённая | Успокаивающее тепло, которое снимает напряжение в шее и плечах.
zh-hans | 热敷颈枕 | 微波加热; 电热; 重力 | 舒缓的温热，化解颈肩紧张。
== wellness | Herbal Tea Sampler
pl | Zestaw herbat ziołowych | na dobranoc; uspokajający; na odporność | Bezkofeinowe mieszanki rumianku, mięty i melisy.
uk | Набір трав'яних чаїв | на ніч; заспокійливий; для імунітету | Безкофеїнові суміші ромашки, м'яти й меліси.
ru | Набор травяных чаёв | на ночь; успокаивающий; для иммунитета | Бескофеиновые смеси ромашки, мяты и мелиссы.
zh-hans | 花草茶品鉴套装 | 睡前; 舒缓; 免疫 | 不含咖啡因的洋甘菊、薄荷和香蜂草调配茶。
== wellness | Foot Massager
pl | Masażer do stóp | shiatsu; z podgrzewaniem; wałkowy | Ugniata zmęczone stopy po długim dniu na nogach.
uk | Масажер для ніг | шиацу; з підігрівом; роликовий | Розминає втомлені ступні після довгого дня на ногах.
ru | Массажёр для ног | шиацу; с подогревом; роликовый | Разминает уставшие ступни после долгого дня на ногах.
zh-hans | 足部按摩器 | 指压; 加热; 滚轮 | 站了一整天后，揉一揉疲惫的双脚。
== wellness | Himalayan Salt Lamp
pl | Lampa solna himalajska | naturalna; rzeźbiona; mini | Ciepły bursztynowy blask, przy którym każdy pokój wydaje się spokojniejszy.
uk | Гімалайська соляна лампа | натуральна; різьблена; міні | Теплий бурштиновий відблиск, з яким будь-яка кімната здається спокійнішою.
ru | Гималайская солевая лампа | натуральная; резная; мини | Тёплое янтарное свечение, с которым любая комната кажется спокойнее.
zh-hans | 喜马拉雅盐灯 | 天然; 雕刻; 迷你 | 温暖的琥珀色光芒，让房间更宁静。
== wellness | Yoga Block Set
pl | Zestaw kostek do jogi | korkowych; piankowych; bambusowych | Dwie twarde kostki i pasek do bezpiecznego pogłębiania rozciągania.
uk | Набір блоків для йоги | коркових; пінних; бамбукових | Два тверді блоки й ремінь, щоб безпечно поглиблювати розтяжку.
ru | Набор блоков для йоги | пробковых; пенных; бамбуковых | Два твёрдых блока и ремень, чтобы безопасно углублять растяжку.
zh-hans | 瑜伽砖套装 | 软木; 泡沫; 竹制 | 两块结实的瑜伽砖和一根伸展带，安全地加深拉伸。
"""
