# ruff: noqa: RUF001 - words in other scripts are the point
"""Music templates in pl, uk, ru and zh-hans (the format: gifts.demo_translations)."""

TEMPLATES = """
== music | Acoustic Guitar
pl | Gitara akustyczna | dreadnought; parlor; podróżna | Gitara z litą płytą, ciepłym brzmieniem i wygodną, niską akcją strun.
uk | Акустична гітара | дредноут; парлор; дорожня | Гітара з масивною декою, теплим звуком і зручною низькою посадкою струн.
ru | Акустическая гитара | дредноут; парлор; дорожная | Гитара с массивной декой, тёплым звуком и удобной низкой посадкой струн.
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
== music | Guitar Pedal
pl | Efekt gitarowy | overdrive; delay; looper | Kostka efektowa z true bypass, która doda charakteru każdemu zestawowi.
uk | Гітарна педаль | овердрайв; дилей; лупер | Педаль ефектів із true bypass, що додасть характеру будь-якому сетапу.
ru | Гитарная педаль | овердрайв; дилей; лупер | Педаль эффектов с true bypass, которая добавит характера любому сетапу.
zh-hans | 吉他效果器 | 过载; 延迟; 循环 | 真旁路单块效果器，为任何设备增添个性。
== music | Studio Headphones
pl | Słuchawki studyjne | zamknięte; otwarte; monitorowe | Wierne brzmieniowo, wygodne słuchawki do miksowania i uważnego słuchania.
uk | Студійні навушники | закриті; відкриті; моніторні | Точні й зручні навушники для зведення та уважного прослуховування.
ru | Студийные наушники | закрытые; открытые; мониторные | Точные и удобные наушники для сведения и внимательного прослушивания.
zh-hans | 录音室耳机 | 封闭式; 开放式; 监听 | 声音还原准确、佩戴舒适，适合混音和专业聆听。
== music | Digital Piano
pl | Pianino cyfrowe | przenośne; kompaktowe; 88 klawiszy | Ważona klawiatura i realistyczne brzmienie fortepianu w oszczędzającej miejsce obudowie.
uk | Цифрове піаніно | портативне; компактне; 88 клавіш | Зважена клавіатура й реалістичний звук фортепіано в компактному корпусі.
ru | Цифровое пианино | портативное; компактное; 88 клавиш | Взвешенная клавиатура и реалистичный звук фортепиано в компактном корпусе.
zh-hans | 电钢琴 | 便携; 紧凑; 88 键 | 配重琴键、逼真钢琴音色，机身小巧省空间。
== music | Record Storage Crate
pl | Skrzynka na płyty winylowe | drewniana; do ustawiania w stos; vintage | Mieści około osiemdziesięciu płyt, a przeglądanie kolekcji staje się przyjemnością.
uk | Ящик для вінілових платівок | дерев'яний; штабельований; вінтажний | Вміщує близько вісімдесяти платівок, і гортати колекцію стає задоволенням.
ru | Ящик для виниловых пластинок | деревянный; штабелируемый; винтажный | Вмещает около восьмидесяти пластинок, и листать коллекцию становится удовольствием.
zh-hans | 黑胶唱片收纳箱 | 木质; 可叠放; 复古 | 可收纳约八十张唱片，翻找唱片成为一种享受。
== music | Guitar Strap
pl | Pasek do gitary | skórzany; tkany; vintage | Wygodny, wyściełany pasek na długie koncerty.
uk | Ремінь для гітари | шкіряний; тканий; вінтажний | Зручний м'який ремінь для довгих виступів.
ru | Ремень для гитары | кожаный; тканый; винтажный | Удобный мягкий ремень для долгих выступлений.
zh-hans | 吉他背带 | 皮革; 编织; 复古 | 舒适的加垫背带，长时间演出也不累。
== music | USB Microphone
pl | Mikrofon USB | do podcastów; pojemnościowy; do streamingu | Studyjna jakość dźwięku przez USB do podcastów, wokalu i streamingu.
uk | USB-мікрофон | для подкастів; конденсаторний; для стримів | Студійна якість звуку через USB для подкастів, вокалу та стримів.
ru | USB-микрофон | для подкастов; конденсаторный; для стримов | Студийное качество звука по USB для подкастов, вокала и стримов.
zh-hans | USB麦克风 | 播客; 电容; 直播 | 通过 USB 获得录音室级音质，适合播客、人声和直播。
== music | Metronome
pl | Metronom | cyfrowy; drewniany; kieszonkowy | Trzyma równe tempo podczas ćwiczeń na każdym instrumencie.
uk | Метроном | цифровий; дерев'яний; кишеньковий | Тримає рівний темп під час занять на будь-якому інструменті.
ru | Метроном | цифровой; деревянный; карманный | Держит ровный темп во время занятий на любом инструменте.
zh-hans | 节拍器 | 电子; 木质; 袖珍 | 练习任何乐器时都能保持稳定节奏。
== music | Drum Practice Pad
pl | Pad perkusyjny do ćwiczeń | 12 cali; dwustronny; cichy | Realistyczne odbicie pałek do cichych ćwiczeń na perkusji.
uk | Тренувальний пед для барабанщиків | 12 дюймів; двосторонній; тихий | Реалістичний відскок палички для тихих барабанних занять.
ru | Тренировочный пэд для барабанщиков | 12 дюймов; двусторонний; тихий | Реалистичный отскок палочки для тихих барабанных занятий.
zh-hans | 哑鼓垫 | 12 英寸; 双面; 静音 | 回弹手感逼真，安静地练习打鼓。
== music | Guitar Care Kit
pl | Zestaw do pielęgnacji gitary | podstawowy; deluxe; do wymiany strun | Struny, pasta polerska, korbka do strun i kostki, by gitara grała jak należy.
uk | Набір для догляду за гітарою | базовий; розширений; для заміни струн | Струни, поліроль, вертушка для струн і медіатори, щоб гітара звучала як слід.
ru | Набор для ухода за гитарой | базовый; расширенный; для замены струн | Струны, полироль, вертушка для струн и медиаторы, чтобы гитара звучала как надо.
zh-hans | 吉他保养套装 | 基础; 豪华; 换弦 | 琴弦、擦琴油、卷弦器和拨片，让吉他保持好状态。
"""
