// Curated vocabulary: technology & computing, video gaming.
import type { Vocabulary } from './types.ts'

export const TECH: Vocabulary = {
  '596': `technology^2, tech^2, digital^1, device^1.5, gadget^2.5, electronics^2, innovation^1, silicon valley^2.5,
    google^1.5, apple^1, microsoft^2, amazon^0.5, facebook^1, meta^0.5, twitter^0.6, ibm^2, intel^2.5, nvidia^2.5,
    samsung^1.5, huawei^1.5, qualcomm^2.5, tesla^0.5, platform^1, algorithm^2, automation^1.5, engineer^1, engineering^1,
    chip^1.5, semiconductor^2.5, processor^2.5, battery^1, sensor^1.5, hardware^2.5, firmware^3, 5g^2, wifi^2, bluetooth^2.5,
    drone^2, robot^2.5, robotics^3, blockchain^2, virtual reality^3, augmented reality^3, vr^2, ar^0.5, headset^1.5`,
  '597': `artificial intelligence^3, ai^2.5, machine learning^3, deep learning^3, neural network^3, chatbot^2.5,
    language model^3, computer vision^3, openai^3, deepmind^3, training data^2.5, model^0.5`,
  '599': `computer^2.5, computing^3, software^2.5, program^1.5, programmer^3, programming language^3, code^2, coding^3, developer^2,
    source code^3, open source^3, github^3, gitlab^3, linux^3, unix^3, windows^1.5, macos^3, operating system^3,
    server^2, database^2.5, cloud^1.5, cloud computing^3, data center^3, network^1, networking^2, internet^2.5, web^2,
    website^1.5, browser^3, firefox^3, chrome^2, html^3, css^3, javascript^3, python^2, java^1.5, rust^1, compiler^3,
    api^2.5, app^1.5, application^1, user interface^2.5, bug^1.5, patch^1.5, release^0.7, version^1, download^1.5, install^2, installation^1.5, laptop^2.5, desktop^2, pc^1.5, keyboard^2, mouse^0.5, monitor^0.5,
    storage^1.5, backup^2, file^1, kernel^3, cpu^3, gpu^3, memory^1, byte^2, gigabyte^2.5, terabyte^2.5, protocol^2,
    encryption^3, encrypted^2.5, cybersecurity^3, security^1, malware^3, ransomware^3, vulnerability^2.5, exploit^1.5,
    hacker^2, hack^1.5, password^2.5, data breach^3, firewall^3, dns^3, http^3, url^2.5, domain^1,
    algorithm^1, repository^2.5, commit^0.8, git^3, mercurial^3, framework^1.5, library^0.8, engine^0.5, script^1,
    function^0.5, variable^1, syntax^2.5, debugging^3, debug^3, sre^2.5, devops^3, web page^2.5, webpage^2.5,
    search engine^3, wikipedia^2, online^1, digital^0.5, tool^0.5, feature^0.5, svg^3`,
  '632': `smartphone^3, phone^1.5, iphone^3, android^3, ipad^3, tablet^2, kindle^2, camera^1.5, tv^0.5,
    television^0.3, smartwatch^3, wearable^3, headphones^2.5, earbuds^3, speaker^0.5, pixel^1, galaxy^0.5, screen^1.5,
    display^1, oled^3, charger^2.5, usb^3, hdmi^3, specs^2, gadget^2`,

  '680': `video game^3, videogame^3, gaming^3, gamer^3, game^1.2, games^1.2, console^2.5, playstation^3, ps4^3, ps5^3,
    xbox^3, nintendo^3, switch^0.5, steam^2, stadia^3, esports^3, multiplayer^3, single-player^3, mmo^3,
    rpg^3, fps^1.5, shooter^1, controller^2, gameplay^3, character^0.8, quest^1.5, boss^0.5, dungeon^2.5,
    player^0.8, players^0.8, developer^0.5, studio^0.6, publisher^0.5, epic games^3, fortnite^3, minecraft^3, pokemon^3,
    zelda^3, mario^3, call of duty^3, overwatch^3, twitch^2.5, dlc^3, indie^1, arcade^2.5, mobile game^3, pc game^3,
    trailer^0.5, remaster^2.5, expansion^0.8, patch^0.5, speedrun^3, ubisoft^3, activision^3, blizzard^2, ea^1,
    bethesda^3, sony^1, halo^2, gears^1.5, skyrim^3, ps^1`,
}
