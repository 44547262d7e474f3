// Realistic browser user agents, generated: every combination of real UA templates (desktop and
// mobile browsers, Android WebViews, in-app browsers, smart TVs, consoles, e-readers, feature phones,
// desktop app shells) with device models, among them names made of bot-ish or agent-ish words
// ("Expanse", "Bot", "Spider", "Crawler", "Monitor", "Agent", "Radar") that browsers do carry. None of
// these may be classified as an agent. Deterministic: the same list on every run.

// Android device models: real ones of many brands, plus ordinary words used as model names.
const MODELS = [
  'SM-G991B',
  'SM-S918B',
  'SM-A515F',
  'SM-A146P',
  'SM-T870',
  'SAMSUNG SM-G973F',
  'Pixel 8 Pro',
  'Pixel 7a',
  'Pixel 10 Pro XL',
  'moto g(50)',
  'moto e13',
  'motorola edge 40',
  'Redmi Note 12',
  'M2102J20SG',
  '2201117TG',
  'POCO F5',
  'Mi 11 Lite',
  'CPH2557',
  'CPH2219',
  'RMX3710',
  'realme GT',
  'vivo 1610',
  'V2111',
  'ONEPLUS A6013',
  'LE2123',
  'HUAWEI MT1-U06',
  'ANE-LX1',
  'ELE-L29',
  'Nokia 7 plus',
  'Nokia G20',
  'TCL 30 SE',
  '5033D',
  'Infinix X6816',
  'TECNO KG5',
  'itel A571W',
  'ZTE Blade A52',
  'BLU G90',
  'CUBOT X30',
  'CUBOT_P20',
  'CUBOT KINGKONG 7',
  'Ulefone Armor 12',
  'DOOGEE S88',
  'Blackview BV9900',
  'OUKITEL WP15',
  'UMIDIGI A13',
  'LG-H870',
  'LM-K420',
  'SONY XQ-BC52',
  'Lenovo TB-X606F',
  'KFTRWI',
  'AFTS',
  'BRAVIA 4K GB',
  'Expanse',
  'Expanse Pro',
  'Bot 5',
  'SmartBot',
  'Robot S',
  'Spider X1',
  'Crawler 2',
  'Monitor 10',
  'Agent X',
  'Radar 8',
  'Scanner Pro',
  'Preview',
  'Proxy',
  'Fetch Plus',
  'Validator',
  'Yeti',
  'Slurp',
  'Code',
  'Cursor',
  'Operator',
  'Devin',
  'Trae',
  'Spider',
  'Mastodon',
  'Viber',
  'Checkly',
  'Daum',
  'Owler',
  'Lumar',
  'Feeder',
  'Reeder',
]
const ANDROID = ['10', '11', '12', '13', '14', '15', '9', '8.1.0', '7.0']
const CHROME = ['124.0.6367.201', '120.0.6099.43', '142.0.7444.142', '109.0.0.0', '87.0.4280.141']
const IOS = ['17_4', '16_5', '15_8', '18_1']

const ANDROID_TEMPLATES = [
  (m: string, a: string, c: string) => `Mozilla/5.0 (Linux; Android ${a}; ${m}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${c} Mobile Safari/537.36`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; U; Android ${a}; en-us; ${m} Build/QP1A.190711.020) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m}) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/${c} Mobile Safari/537.36`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/SKQ1.211006.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36 Instagram 311.0.0.32.118 Android (33/13; 480dpi; 1080x2176; samsung; ${m}; o1s; exynos2100; en_US; 545986883)`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/RKQ1.200826.002; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36 [FB_IAB/FB4A;FBAV/447.0.0.33.116;FBDV/${m};FBMD/samsung;FBSN/Android;]`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/SP1A.210812.016; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36 Line/13.1.1/IAB`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36 trill_2021806060 JsSdk/1.0 NetType/WIFI Channel/googleplay AppName/musical_ly app_version/33.1.4 ByteLocale/en ByteFullLocale/en Region/US`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/SKQ1.211006.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36 XWEB/5023 MMWEBSDK/20230405 MMWEBID/2585 MicroMessenger/8.0.35.2360(0x2800235D) WeChat/arm64 Weixin NetType/WIFI Language/en ABI/arm64`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${c} Mobile Safari/537.36 EdgA/124.0.2478.64`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${c} Mobile Safari/537.36 OPR/80.4.4244.77130`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${c} YaBrowser/24.4.2.100 Mobile Safari/537.36`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/RP1A.200720.012; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36 KAKAOTALK 10.4.3`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36 GSA/15.13.36.29.arm64`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${c} Mobile Safari/537.36 (Ecosia android@${c})`,
  (_m: string, a: string) => `Mozilla/5.0 (Android ${a}; Mobile; rv:125.0) Gecko/125.0 Firefox/125.0`,
  (m: string, a: string) => `Dalvik/2.1.0 (Linux; U; Android ${a}; ${m} Build/PPR1.180610.011)`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m} Build/RP1A.201005.001; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/${c} Mobile Safari/537.36 Snapchat/12.55.0.38 (like Safari/604.1)`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m}) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${c} Mobile Safari/537.36 DuckDuckGo/5`,
  (m: string, a: string, c: string) =>
    `Mozilla/5.0 (Linux; Android ${a}; ${m}; HMSCore 6.12.0.302) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${c} HuaweiBrowser/14.0.2.311 Mobile Safari/537.36`,
]

const IOS_TEMPLATES = [
  (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1`,
  (v: string) => `Mozilla/5.0 (iPad; CPU OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1`,
  (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) FxiOS/125.0 Mobile/15E148 Safari/605.1.15`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) EdgiOS/124.0.2478.71 Version/17.0 Mobile/15E148 Safari/604.1`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [FBAN/FBIOS;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;FBSV/16.5;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5;FBRV/0]`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Instagram 321.0.2.18.104 (iPhone14,2; iOS 17_4; en_US; en; scale=3.00; 1170x2532; 573547880)`,
  (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [LinkedInApp]/9.29.8962`,
  (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 [Pinterest/iOS]`,
  (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Twitter for iPhone/10.34`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) GSA/310.0.620522383 Mobile/15E148 Safari/604.1`,
  (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Line/14.5.0`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 musical_ly_32.5.0 JsSdk/2.0 NetType/WIFI Channel/App Store ByteLocale/en Region/US ByteFullLocale/en isDarkMode/0 WKWebView/1 RevealType/Dialog BytedanceWebview/d8a21c6`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Mobile/15E148 Safari/604.1 (Ecosia ios@9.2.3.1367)`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Snapchat/12.55.0.38 (like Safari/8616.1.24.10.8, panda)`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 MicroMessenger/8.0.47(0x18002f2c) NetType/WIFI Language/zh_CN`,
  (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 DuckDuckGo/7 Safari/605.1.15`,
  (v: string) =>
    `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 NAVER(inapp; search; 2000; 12.5.1; 14PRO)`,
  () => `Podcasts/1555.2.1 CFNetwork/1490.0.4 Darwin/23.2.0`,
  (v: string) => `Mozilla/5.0 (iPhone; CPU iPhone OS ${v} like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Flipboard/4.3.21`,
]

const DESKTOP = [
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C Safari/537.36 Edg/124.0.2478.80',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C Safari/537.36 OPR/109.0.0.0',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C YaBrowser/24.4.0.0 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4.1 Safari/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C Safari/537.36',
  'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C Safari/537.36',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Ubuntu Chromium/%C Chrome/%C Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0',
  'Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko',
  'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; WOW64; Trident/4.0; SLCC2; .NET CLR 2.0.50727; Media Center PC 6.0)',
  'Mozilla/5.0 (compatible; MSIE 10.0; Windows NT 6.2; ARM; Trident/6.0; Touch)',
  // Desktop app shells (Electron): people using apps, not agents.
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Slack/4.36.140 Chrome/%C Electron/28.0.0 Safari/537.36 Sonic Slack_SSB/4.36.140',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Code/1.85.0 Chrome/%C Electron/25.9.7 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) discord/1.0.9147 Chrome/%C Electron/28.2.10 Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Cursor/0.42.3 Chrome/%C Electron/30.4.0 Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C Safari/537.36 Vivaldi/6.7.3329.21',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%C Whale/3.25.232.19 Safari/537.36',
]

// Televisions, consoles, e-readers, cars, feature phones and text browsers.
const OTHER = [
  'Mozilla/5.0 (SMART-TV; Linux; Tizen 6.0) AppleWebKit/537.36 (KHTML, like Gecko) 76.0.3809.146/6.0 TV Safari/537.36',
  'Mozilla/5.0 (Web0S; Linux/SmartTV) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/79.0.3945.79 Safari/537.36 WebAppManager',
  'Mozilla/5.0 (Linux; Android 9; BRAVIA 4K GB Build/PTT1.190515.001.S52) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/112.0.5615.136 Mobile Safari/537.36 OPR/46.0.2207.0 OMI/4.24',
  'Mozilla/5.0 (Linux; NetCast; U) AppleWebKit/537.31 (KHTML, like Gecko) Chrome/26.0.1410.33 Safari/537.31 SmartTV/6.0',
  'HbbTV/1.5.1 (+DRM;Samsung;SmartTV2021:UAU7000;T-KSU2EDEUC-1506.0;KantSU2e;urn:samsung.com:familyname:2021:UAU7000) Tizen/6.0 (+TVPLUS+SmartHubLink) Chrome/76',
  'Opera/9.80 (Linux mips; U; HbbTV/1.1.1 (; Philips; ; ; ; ) CE-HTML/1.0 NETTV/3.1.0; en) Presto/2.6.33 Version/10.70',
  'Roku/DVP-9.10 (519.10E04111A)',
  'Mozilla/5.0 (CrKey armv7l 1.5.16041) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/31.0.1650.0 Safari/537.36',
  'Mozilla/5.0 (PlayStation; PlayStation 5/2.26) AppleWebKit/605.1.15 (KHTML, like Gecko)',
  'Mozilla/5.0 (PlayStation 4 5.55) AppleWebKit/601.2 (KHTML, like Gecko)',
  'Mozilla/5.0 (Nintendo Switch; WifiWebAuthApplet) AppleWebKit/606.4 (KHTML, like Gecko) NF/6.0.1.15.4 NintendoBrowser/5.1.0.20393',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; Xbox; Xbox One) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.102 Safari/537.36 Edge/18.19041',
  'Mozilla/5.0 (X11; U; Linux armv7l like Android; en-us) AppleWebKit/531.2+ (KHTML, like Gecko) Version/5.0 Safari/533.2+ Kindle/3.0+',
  'Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/124.2.1 like Chrome/124.0.6367.179 Safari/537.36',
  'Mozilla/5.0 (X11; GNU/Linux) AppleWebKit/537.36 (KHTML, like Gecko) Chromium/79.0.3945.130 Chrome/79.0.3945.130 Safari/537.36 Tesla/2020.16.2.1-e99c70fff409',
  'Mozilla/5.0 (Mobile; rv:48.0) Gecko/48.0 Firefox/48.0 KAIOS/2.5',
  'Opera/9.80 (J2ME/MIDP; Opera Mini/4.2.14912/870; U; id) Presto/2.4.15',
  'Nokia6300/2.0 (05.00) Profile/MIDP-2.0 Configuration/CLDC-1.1',
  'BlackBerry8520/5.0.0.681 Profile/MIDP-2.1 Configuration/CLDC-1.1 VendorID/600',
  'SAMSUNG-GT-S5620/1.0 SHP/VPP/R5 Dolfin/1.5 Nextreaming SMM-MMS/1.2.0 profile/MIDP-2.1 configuration/CLDC-1.1',
  'Mozilla/5.0 (BB10; Touch) AppleWebKit/537.35+ (KHTML, like Gecko) Version/10.3.2.2639 Mobile Safari/537.35+',
  'Lynx/2.8.9rel.1 libwww-FM/2.14 SSL-MM/1.4.1 OpenSSL/1.1.1d',
  'Links (2.20.2; Linux 5.4.0 x86_64; GNU C; text)',
  'ELinks/0.13.GIT (textmode; Linux 2.6.29 i686; 128x48-2)',
  'Mozilla/5.0 (compatible; Konqueror/4.5; Linux) KHTML/4.5.5 (like Gecko)',
  'AppleCoreMedia/1.0.0.21E236 (iPhone; U; CPU OS 17_4 like Mac OS X; en_us)',
  'Spotify/8.9.36 iOS/17.4 (iPhone15,2)',
  'Microsoft Office/16.0 (Windows NT 10.0; Microsoft Outlook 16.0.17328; Pro)',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 (Ecosia windows@124.0.0.0)',
  // Regional and niche browsers, set-top boxes, e-readers.
  'Mozilla/5.0 (Linux; U; Android 10; en-US; RMX1911 Build/QKQ1.200209.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/78.0.3904.108 UCBrowser/13.4.0.1306 Mobile Safari/537.36',
  'Opera/9.80 (Android; Opera Mini/7.5.33361/31.1448; U; en) Presto/2.8.119 Version/11.1010',
  'Opera/9.80 (J2ME/MIDP; Opera Mini/9.80 (S60; SymbOS; Opera Mobi/23.348; U; en) Presto/2.5.25 Version/10.54',
  'Mozilla/5.0 (Linux; Android 11; M2101K6G) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/100.0.4896.127 Mobile Safari/537.36 XiaoMi/MiuiBrowser/13.11.0-gn',
  'Mozilla/5.0 (Linux; U; Android 11; zh-cn; PDEM10 Build/RKQ1.200903.002) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/70.0.3538.80 Mobile Safari/537.36 HeyTapBrowser/40.7.35.1',
  'Mozilla/5.0 (Linux; U; Android 12; zh-CN; V2199A Build/SP1A.210812.003) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/100.0.4896.58 Quark/6.2.2.246 Mobile Safari/537.36',
  'Mozilla/5.0 (Linux; U; Android 9; zh-cn; MI 8 Build/PKQ1.180729.001) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/66.0.3359.126 MQQBrowser/10.1 Mobile Safari/537.36',
  'Mozilla/5.0 (Windows NT 10.0; WOW64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/70.0.3538.25 Safari/537.36 Core/1.70.3877.400 QQBrowser/10.8.4506.400',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.198 Safari/537.36 SE 2.X MetaSr 1.0',
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Puffin/9.7.2.51367AP',
  'Mozilla/5.0 (Linux; Android 10; Infinix X682B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/92.0.4515.131 Mobile Safari/537.36 PHX/11.2',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/109.0.0.0 Safari/537.36 Avast/109.0.19987.120',
  'Mozilla/5.0 (Linux; Android 10; SM-A105F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/88.0.4324.181 Mobile Safari/537.36 AlohaBrowser/3.0.4',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 16_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1 Reddit/Version 2023.32.0/Build 1140567/iOS Version 16.6 (Build 20G75)',
  'Mozilla/5.0 (Linux; Android 13; SM-S911B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/116.0.0.0 Mobile Safari/537.36 GoogleApp/14.35.29.29.arm64',
  'Mozilla/5.0 (SMART-TV; LINUX; Tizen 5.5) AppleWebKit/537.36 (KHTML, like Gecko) 69.0.3497.106.1/5.5 TV Safari/537.36',
  'Mozilla/5.0 (Linux; Android 9; SHIELD Android TV Build/PPR1.180610.011; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/114.0.5735.196 Mobile Safari/537.36',
  'Mozilla/5.0 (X11; Linux armv7l) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/86.0.4240.198 Safari/537.36 OPR/46.0.2207.0 OMI/4.21.0.273.DIA6.149 Model/Vestel-MB211 VSTVB MB200 FVC/5.0 (VESTEL; MB211; ) HbbTV/1.5.1 (+DRM; VESTEL; MB211; 4.21.0.273; ; _TV_G31_2020;) SmartTvA/3.0.0',
  'HbbTV/1.2.1 (;Panasonic;VIERA 2013;3.672;4101-0003 0002-0000;)',
  'Mozilla/5.0 (Linux; Android 7.1.2; AFTMM Build/NS6265; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/70.0.3538.110 Mobile Safari/537.36',
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/16.0 Safari/605.1.15 Epiphany/605.1.15',
  'Mozilla/5.0 (X11; Linux x86_64; rv:109.0) Gecko/20100101 Firefox/115.0 SeaMonkey/2.53.17',
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:102.0) Gecko/20100101 Goanna/6.5 Firefox/102.0 PaleMoon/32.5.0',
  'Mozilla/5.0 (Linux; U; en-US) AppleWebKit/528.5+ (KHTML, like Gecko, Safari/528.5+) Version/4.0 Kindle/3.0 (screen 600x800; rotate)',
  'Mozilla/5.0 (compatible; MSIE 10.0; Windows Phone 8.0; Trident/6.0; IEMobile/10.0; ARM; Touch; NOKIA; Lumia 920)',
  'Mozilla/5.0 (Linux; Android 7.1.2; AEOBC) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/77.0.3865.92 Safari/537.36',
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 Safari/604.1 OPT/4.6.0',
  'Mozilla/5.0 (Linux; Android 11; Lenovo YT-J706X) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.144 Safari/537.36',
  'SonyEricssonK750i/R1CA Browser/SEMC-Browser/4.2 Profile/MIDP-2.0 Configuration/CLDC-1.1',
  'MOT-V3/0E.41.C3R MIB/2.2.1 Profile/MIDP-2.0 Configuration/CLDC-1.1 UP.Link/6.3.1.17.0',
  'DoCoMo/2.0 N905i(c100;TB;W24H16)',
  'KDDI-CA39 UP.Browser/6.2.0.13.1.5 (GUI) MMP/2.0',
  // Internet Explorer with the toolbars and add-ons it reported in its platform comment.
  'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.0; SLCC1; .NET CLR 2.0.50727; Media Center PC 5.0; .NET CLR 3.0.04506; MSN Optimized;US)',
  'Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 5.1; Trident/4.0; GTB6.4; .NET CLR 1.1.4322; FDM; .NET CLR 2.0.50727; WebMoney Advisor; Alexa Toolbar)',
  'Mozilla/5.0 (compatible; MSIE 9.0; Windows NT 6.1; WOW64; Trident/5.0; SLCC2; .NET CLR 2.0.50727; .NET4.0C; .NET4.0E; MASPJS; Zune 4.7; chromeframe/26.0.1410.64)',
  'Mozilla/4.0 (compatible; MSIE 6.0; Windows NT 5.1; SV1; FunWebProducts; Hotbar 4.6.1; SearchToolbar 1.2; InfoPath.1)',
  'Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 5.1; Trident/4.0; Download Accelerator Plus; DAP 10.0.5.36)',
  // Apps whose comment names the device first.
  ...MODELS.slice(-30).map((m) => `Snapchat/12.55.0.38 (${m}; Android 13#a1b2c3#33; gzip)`),
  // In-app browsers that append their app's bundle id.
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148 com.example.reader.app',
  'Mozilla/5.0 (Linux; Android 13; SM-A536B Build/TP1A.220624.014; wv) AppleWebKit/537.36 (KHTML, like Gecko) Version/4.0 Chrome/120.0.6099.43 Mobile Safari/537.36 com.news.daily.io/5.2',
]

/** Every generated browser UA, deduplicated, in a fixed order. */
export function browserUserAgents(): string[] {
  const out = new Set<string>()
  for (const m of MODELS) {
    ANDROID_TEMPLATES.forEach((t, i) => {
      out.add(t(m, ANDROID[i % ANDROID.length]!, CHROME[i % CHROME.length]!))
      out.add(t(m, ANDROID[(i + 3) % ANDROID.length]!, CHROME[(i + 2) % CHROME.length]!))
    })
  }
  for (const v of IOS) for (const t of IOS_TEMPLATES) out.add(t(v))
  for (const c of CHROME) for (const t of DESKTOP) out.add(t.replaceAll('%C', c))
  for (const ua of OTHER) out.add(ua)
  return [...out]
}
