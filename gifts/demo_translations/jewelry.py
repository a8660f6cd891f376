# ruff: noqa: RUF001 - words in other scripts are the point
"""Jewelry templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== jewelry | Pendant Necklace
pl | Naszyjnik z zawieszką | srebro próby 925; pozłacany; z kamieniem urodzinowym | Delikatna zawieszka na regulowanym łańcuszku, w pudełku prezentowym.
uk | Кольє з підвіскою | зі срібла 925; позолочене; з каменем за місяцем народження | Витончена підвіска на регульованому ланцюжку в подарунковій коробці.
ru | Колье с подвеской | из серебра 925; позолоченное; с камнем по месяцу рождения | Изящная подвеска на регулируемой цепочке в подарочной коробке.
zh-hans | 吊坠项链 | 925 银; 镀金; 诞生石 | 精致吊坠配可调节链条，附礼盒。
== jewelry | Stud Earrings
pl | Kolczyki wkrętki | z perłą; ze szlifem diamentowym; ze srebra próby 925 | Małe kolczyki na co dzień, które pięknie łapią światło.
uk | Сережки-пусети | з перлиною; з діамантовою гранню; зі срібла 925 | Маленькі сережки на щодень, що грають на світлі.
ru | Серьги-гвоздики | с жемчугом; с алмазной гранью; из серебра 925 | Маленькие серьги на каждый день, которые играют на свету.
zh-hans | 耳钉 | 珍珠; 钻石切工; 925 银 | 小巧百搭的日常耳钉，闪闪发光。
== jewelry | Charm Bracelet
pl | Bransoletka na charmsy | srebrna; w kolorze różowego złota; z koralików | Bransoletka gotowa na zawieszki, które opowiedzą osobistą historię.
uk | Браслет для шармів | срібний; кольору рожевого золота; з намистин | Браслет, готовий до шармів, що розкажуть особисту історію.
ru | Браслет для шармов | серебряный; цвета розового золота; из бусин | Браслет, готовый для шармов, которые расскажут личную историю.
zh-hans | 挂饰手链 | 银色; 玫瑰金; 串珠 | 可以挂上各式小吊饰，讲述专属于你的故事。
== jewelry | Engraved Locket
pl | Grawerowany medalion | serce; owalny; vintage | Mieści dwa małe zdjęcia, a na nim można wygrawerować datę lub inicjały.
uk | Медальйон із гравіюванням | серце; овальний; вінтажний | Вміщує дві крихітні фотографії, на ньому можна вигравіювати дату чи ініціали.
ru | Медальон с гравировкой | сердце; овальный; винтажный | Вмещает две крошечные фотографии, на нём можно выгравировать дату или инициалы.
zh-hans | 刻字相片盒吊坠 | 心形; 椭圆; 复古 | 可放两张小照片，还能刻上日期或姓名缩写。
== jewelry | Cufflinks
pl | Spinki do mankietów | z onyksem; grawerowane; węzełki | Polerowane spinki, które dopełniają elegancką koszulę.
uk | Запонки | з оніксом; з гравіюванням; вузлики | Поліровані запонки, що довершують святкову сорочку.
ru | Запонки | с ониксом; с гравировкой; узелки | Полированные запонки, которые завершают образ с парадной рубашкой.
zh-hans | 袖扣 | 缟玛瑙; 刻字; 绳结 | 抛光袖扣，为正装衬衫画龙点睛。
== jewelry | Stacking Ring Set
pl | Zestaw pierścionków do łączenia | złotych; srebrnych; z kamieniami | Trzy cienkie pierścionki do noszenia razem lub osobno.
uk | Набір тонких каблучок | золотих; срібних; із камінцями | Три тонкі каблучки, які можна носити разом або окремо.
ru | Набор тонких колец | золотых; серебряных; с камнями | Три тонких кольца, которые можно носить вместе или по отдельности.
zh-hans | 叠戴戒指套装 | 金色; 银色; 宝石 | 三枚细戒指，可叠戴也可单戴。
== jewelry | Jewelry Box
pl | Szkatułka na biżuterię | skórzana; podróżna; welurowa | Wyściełane przegródki, w których naszyjniki się nie plączą.
uk | Скринька для прикрас | шкіряна; дорожня; оксамитова | Відділення з м'якою оббивкою, у яких ланцюжки не плутаються.
ru | Шкатулка для украшений | кожаная; дорожная; бархатная | Отделения с мягкой обивкой, в которых цепочки не путаются.
zh-hans | 首饰盒 | 皮革; 旅行; 丝绒 | 软衬分格收纳，项链不再缠成一团。
== jewelry | Hoop Earrings
pl | Kolczyki koła | złote; przylegające; skręcane | Lekkie koła, które pasują i do biura, i na wieczór.
uk | Сережки-кільця | золоті; конго-міні; кручені | Легкі кільця, що пасують і до офісу, і на вечір.
ru | Серьги-кольца | золотые; конго-мини; кручёные | Лёгкие кольца, которые подходят и для офиса, и для вечера.
zh-hans | 圈形耳环 | 金色; 贴耳; 扭纹 | 轻盈耳圈，从办公室到晚宴都合适。
== jewelry | Anklet
pl | Bransoletka na kostkę | łańcuszkowa; z muszelkami; z koralików | Delikatna bransoletka na kostkę do sandałów i na letnie dni.
uk | Браслет на щиколотку | ланцюжок; з мушлями; з намистин | Ніжний браслет на щиколотку для сандалій і літніх днів.
ru | Браслет на щиколотку | цепочка; с ракушками; из бусин | Нежный браслет на щиколотку для сандалий и летних дней.
zh-hans | 脚链 | 链条; 贝壳; 串珠 | 精巧的脚链，配凉鞋、过夏天。
== jewelry | Initial Necklace
pl | Naszyjnik z inicjałem | złoty; srebrny; pisany | Spersonalizowana zawieszka z inicjałem na cienkim łańcuszku.
uk | Кольє з ініціалом | золоте; срібне; рукописне | Іменна підвіска-ініціал на тонкому ланцюжку.
ru | Колье с инициалом | золотое; серебряное; рукописное | Именная подвеска-инициал на тонкой цепочке.
zh-hans | 字母项链 | 金色; 银色; 手写体 | 专属首字母吊坠，配细链。
== jewelry | Pearl Bracelet
pl | Bransoletka z pereł | słodkowodnych; barokowych; podwójna | Lśniące perły hodowlane z pewnym zapięciem.
uk | Перлинний браслет | з прісноводних перлин; з барокових перлин; подвійний | Блискучі культивовані перли з надійною застібкою.
ru | Жемчужный браслет | из пресноводного жемчуга; из барочного жемчуга; двойной | Блестящий культивированный жемчуг с надёжной застёжкой.
zh-hans | 珍珠手链 | 淡水; 巴洛克; 双层 | 光泽莹润的养殖珍珠，搭配牢固的扣头。
== jewelry | Chain Bracelet
pl | Bransoletka łańcuszkowa | stalowa; ze skórą; pancerka | Wyrazista, trwała bransoletka z solidnym zapięciem.
uk | Браслет-ланцюжок | сталевий; зі шкірою; панцирний | Виразний міцний браслет із надійною застібкою.
ru | Браслет-цепочка | стальной; с кожей; панцирный | Выразительный прочный браслет с надёжной застёжкой.
zh-hans | 链条手链 | 钢制; 皮革; 古巴链 | 粗犷耐用的手链，扣头结实。
"""
