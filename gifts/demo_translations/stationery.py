# ruff: noqa: RUF001 - words in other scripts are the point
"""Stationery templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== stationery | Fountain Pen
pl | Pióro wieczne | mosiężne; dla początkujących; z cienką stalówką | Płynnie piszące pióro z konwerterem do atramentu z butelki.
uk | Перова ручка | латунна; для початківців; з тонким пером | Ручка з м'яким письмом і конвертером для чорнила з флакона.
ru | Перьевая ручка | латунная; для начинающих; с тонким пером | Ручка с мягким письмом и конвертером для чернил из флакона.
zh-hans | 钢笔 | 黄铜; 入门; 细尖 | 书写顺滑，附上墨器，可用瓶装墨水。
== stationery | Leather Journal
pl | Skórzany notes | z wymiennym wkładem; tłoczony; podróżny | Ręcznie szyta okładka i gruby papier przyjazny piórom wiecznym.
uk | Шкіряний щоденник | зі змінним блоком; тиснений; дорожній | Обкладинка ручного шиття та щільний папір, дружній до перових ручок.
ru | Кожаный ежедневник | со сменным блоком; тиснёный; дорожный | Обложка ручной прошивки и плотная бумага, дружественная к перьевым ручкам.
zh-hans | 真皮手账本 | 可替换内芯; 压纹; 旅行 | 手工缝制的封皮，内页厚实，钢笔书写不洇。
== stationery | Dotted Notebook
pl | Notes w kropki | A5; w twardej oprawie; z papieru z recyklingu | Numerowane strony, spis treści i oprawa otwierająca się na płasko do bullet journalingu.
uk | Блокнот у крапку | A5; у твердій обкладинці; з переробленого паперу | Пронумеровані сторінки, зміст і палітурка, що розкривається рівно, для буллет-джорналу.
ru | Блокнот в точку | A5; в твёрдой обложке; из переработанной бумаги | Пронумерованные страницы, оглавление и переплёт, который раскрывается плоско, для буллет-джорнала.
zh-hans | 点阵笔记本 | A5; 精装; 再生纸 | 页码、索引和可平摊装订，适合子弹笔记。
== stationery | Desk Organizer
pl | Organizer na biurko | orzechowy; bambusowy; filcowy | Porządkuje długopisy, notatki i kable na zapracowanym biurku.
uk | Органайзер для столу | горіховий; бамбуковий; фетровий | Наводить лад серед ручок, нотаток і кабелів на завантаженому столі.
ru | Органайзер для стола | ореховый; бамбуковый; фетровый | Наводит порядок среди ручек, заметок и кабелей на загруженном столе.
zh-hans | 桌面收纳架 | 胡桃木; 竹制; 毛毡 | 让忙碌桌面上的笔、便签和线缆井井有条。
== stationery | Washi Tape Set
pl | Zestaw taśm washi | botanicznych; pastelowych; vintage | Dwadzieścia rolek wzorzystej taśmy do notesów, kartek i pakowania prezentów.
uk | Набір стрічок васі | ботанічних; пастельних; вінтажних | Двадцять рулонів візерункової стрічки для щоденників, листівок і пакування подарунків.
ru | Набор лент васи | ботанических; пастельных; винтажных | Двадцать рулонов узорной ленты для дневников, открыток и упаковки подарков.
zh-hans | 和纸胶带套装 | 植物; 马卡龙色; 复古 | 二十卷花纹胶带，装饰手账、卡片和礼物包装。
== stationery | Planner
pl | Planer | tygodniowy na 2026; bez dat; akademicki | Układ tygodnia na rozkładówce, strony na cele i tasiemka-zakładka.
uk | Планер | щотижневий на 2026; недатований; академічний | Тиждень на розвороті, сторінки для цілей і закладка-стрічка.
ru | Планер | еженедельный на 2026; недатированный; академический | Неделя на развороте, страницы для целей и закладка-ляссе.
zh-hans | 计划本 | 2026 年周历; 无日期; 学年 | 一周一览的版式，附目标页和丝带书签。
== stationery | Wax Seal Kit
pl | Zestaw do pieczęci lakowej | vintage; z monogramem; startowy | Mosiężna pieczęć i laski laku do stylowego pieczętowania listów.
uk | Набір для сургучної печатки | вінтажний; з монограмою; стартовий | Латунна печатка й палички сургучу, щоб стильно запечатувати листи.
ru | Набор для сургучной печати | винтажный; с монограммой; стартовый | Латунная печать и палочки сургуча, чтобы стильно запечатывать письма.
zh-hans | 火漆印章套装 | 复古; 字母组合; 入门 | 黄铜印章和火漆条，为信件封上别致的印记。
== stationery | Greeting Card Set
pl | Zestaw kartek okolicznościowych | typograficznych; akwarelowych; z podziękowaniami | Puste kartki i koperty na odręczne liściki.
uk | Набір вітальних листівок | з високим друком; акварельних; подячних | Чисті листівки й конверти для написаних від руки побажань.
ru | Набор поздравительных открыток | с высокой печатью; акварельных; благодарственных | Чистые открытки и конверты для написанных от руки пожеланий.
zh-hans | 贺卡套装 | 凸版印刷; 水彩; 感谢 | 空白卡片和信封，写下亲笔留言。
== stationery | Gel Pen Set
pl | Zestaw długopisów żelowych | pastelowych; metalicznych; cienkopiszących | Gładki, żywy tusz żelowy do notatek, rysunków i kolorowania.
uk | Набір гелевих ручок | пастельних; металік; з тонким стрижнем | М'яке яскраве гелеве чорнило для нотаток, малюнків і розфарбовування.
ru | Набор гелевых ручек | пастельных; металлик; с тонким стержнем | Мягкие яркие гелевые чернила для заметок, рисунков и раскрашивания.
zh-hans | 中性笔套装 | 马卡龙色; 金属色; 细尖 | 书写顺滑、色彩鲜艳，记笔记、涂鸦和填色都合适。
== stationery | Desk Lamp
pl | Lampka biurkowa | LED; kreślarska; z klipsem | Regulowane, niemigające światło na długie godziny pracy.
uk | Лампа для робочого столу | світлодіодна; архітекторська; на струбцині | Регульоване світло без мерехтіння для довгої роботи.
ru | Лампа для рабочего стола | светодиодная; архитекторская; на струбцине | Регулируемый свет без мерцания для долгой работы.
zh-hans | 书桌台灯 | LED; 建筑师; 夹式 | 可调节、无频闪，长时间工作也护眼。
== stationery | Ink Bottle Set
pl | Zestaw atramentów w butelkach | do piór wiecznych; z drobinkami; archiwalnych | Atramenty o głębokich barwach, które dobrze płyną w piórach wiecznych i stalówkach.
uk | Набір чорнила у флаконах | для перових ручок; з блиском; архівного | Насичені кольорові чорнила, що добре течуть у перових ручках і перах для вмочування.
ru | Набор чернил во флаконах | для перьевых ручек; с блёстками; архивных | Насыщенные цветные чернила, которые хорошо текут в перьевых ручках и перьях для макания.
zh-hans | 瓶装墨水套装 | 钢笔; 闪粉; 档案级 | 色彩浓郁，在钢笔和蘸水笔中都流畅顺滑。
== stationery | Letter Opener
pl | Nóż do listów | mosiężny; grawerowany; drewniany | Ciężkie narzędzie na biurko, które czysto rozcina koperty.
uk | Ніж для листів | латунний; з гравіюванням; дерев'яний | Вагомий настільний інструмент, що акуратно розрізає конверти.
ru | Нож для писем | латунный; с гравировкой; деревянный | Увесистый настольный инструмент, который аккуратно вскрывает конверты.
zh-hans | 拆信刀 | 黄铜; 刻字; 木质 | 有分量的桌面小工具，利落地裁开信封。
== stationery | Mechanical Pencil
pl | Ołówek automatyczny | kreślarski; mosiężny; z automatycznym wysuwem | Precyzyjny, wyważony ołówek, którego nigdy nie trzeba temperować.
uk | Механічний олівець | креслярський; латунний; з автоподачею | Точний, збалансований олівець, який ніколи не треба стругати.
ru | Механический карандаш | чертёжный; латунный; с автоподачей | Точный, сбалансированный карандаш, который никогда не нужно точить.
zh-hans | 自动铅笔 | 绘图; 黄铜; 自动出芯 | 精准平衡，永远不用削。
== stationery | Notepad Set
pl | Zestaw notesów | z monogramem; na biurko; kieszonkowych | Bloczki do odrywania na listy, przypomnienia i szybkie szkice.
uk | Набір блокнотів | з монограмою; настільних; кишенькових | Відривні блоки для списків, нагадувань і швидких замальовок.
ru | Набор блокнотов | с монограммой; настольных; карманных | Отрывные блоки для списков, напоминаний и быстрых набросков.
zh-hans | 便笺本套装 | 字母定制; 桌面; 口袋 | 可撕便笺，用来列清单、写提醒和随手画。
"""
