/**
 * Real first-level subdivisions of the demo countries with real towns in them. A town's weight is
 * roughly its population in thousands, so big cities get more demo profiles.
 */
import type { Language } from "../../src/shared/locales";

/** Countries with demo members (and their own demo site, or one listing them). */
export const DEMO_COUNTRIES = [
  "NL",
  "BE",
  "DE",
  "AT",
  "CH",
  "GB",
  "IE",
  "DK",
  "NO",
  "SE",
  "PL",
  "FI",
  "FR",
  "ES",
  "IT",
] as const;
export type DemoCountry = (typeof DEMO_COUNTRIES)[number];

/**
 * Countries whose regions and towns are reference data (migration 0034, `npm run places`): every
 * country whose language the product speaks and the EU/EEA countries next to them (decision 0058).
 */
export const PLACE_COUNTRIES = [...DEMO_COUNTRIES, "LU", "PT"] as const;
export type PlaceCountry = (typeof PLACE_COUNTRIES)[number];

export interface City {
  name: string;
  weight: number;
}

export interface Region {
  /** Row id in the regions table: the position in REGIONS plus one, stable across runs. */
  id: number;
  country: PlaceCountry;
  code: string;
  name: string;
  cities: readonly City[];
  /** Languages spoken by the region's members, with weights; absent means the country's main one. */
  languages?: readonly (readonly [Language, number])[];
}

type CityList = readonly (readonly [string, number])[];
type RegionInput = Omit<Region, "id" | "cities"> & { cities: CityList };

function country(
  code: PlaceCountry,
  regions: readonly [string, string, CityList, Region["languages"]?][],
): RegionInput[] {
  return regions.map(([regionCode, name, cities, languages]) => ({
    country: code,
    code: regionCode,
    name,
    cities,
    ...(languages ? { languages } : {}),
  }));
}

const FR: Region["languages"] = [["fr", 1]];
const IT: Region["languages"] = [["it", 1]];

const NL = country("NL", [
  [
    "NL-DR",
    "Drenthe",
    [
      ["Emmen", 108],
      ["Assen", 69],
      ["Hoogeveen", 56],
      ["Meppel", 35],
      ["Coevorden", 35],
    ],
  ],
  [
    "NL-FL",
    "Flevoland",
    [
      ["Almere", 218],
      ["Lelystad", 80],
      ["Dronten", 42],
      ["Emmeloord", 27],
      ["Zeewolde", 23],
    ],
  ],
  [
    "NL-FR",
    "Fryslân",
    [
      ["Leeuwarden", 125],
      ["Heerenveen", 51],
      ["Drachten", 45],
      ["Sneek", 34],
      ["Harlingen", 16],
      ["Franeker", 13],
    ],
  ],
  [
    "NL-GE",
    "Gelderland",
    [
      ["Nijmegen", 180],
      ["Arnhem", 165],
      ["Apeldoorn", 165],
      ["Ede", 120],
      ["Doetinchem", 58],
      ["Harderwijk", 48],
      ["Zutphen", 48],
      ["Tiel", 42],
      ["Wageningen", 40],
    ],
  ],
  [
    "NL-GR",
    "Groningen",
    [
      ["Groningen", 235],
      ["Hoogezand", 35],
      ["Stadskanaal", 32],
      ["Veendam", 28],
      ["Delfzijl", 25],
      ["Winschoten", 18],
    ],
  ],
  [
    "NL-LI",
    "Limburg",
    [
      ["Maastricht", 122],
      ["Venlo", 102],
      ["Sittard", 92],
      ["Heerlen", 87],
      ["Roermond", 59],
      ["Weert", 50],
      ["Kerkrade", 45],
    ],
  ],
  [
    "NL-NB",
    "Noord-Brabant",
    [
      ["Eindhoven", 238],
      ["Tilburg", 224],
      ["Breda", 184],
      ["'s-Hertogenbosch", 160],
      ["Helmond", 93],
      ["Oss", 93],
      ["Roosendaal", 78],
      ["Bergen op Zoom", 68],
      ["Waalwijk", 49],
    ],
  ],
  [
    "NL-NH",
    "Noord-Holland",
    [
      ["Amsterdam", 918],
      ["Haarlem", 162],
      ["Zaandam", 157],
      ["Alkmaar", 110],
      ["Purmerend", 93],
      ["Hilversum", 92],
      ["Amstelveen", 92],
      ["Hoofddorp", 75],
      ["Hoorn", 74],
      ["Den Helder", 56],
    ],
  ],
  [
    "NL-OV",
    "Overijssel",
    [
      ["Enschede", 160],
      ["Zwolle", 130],
      ["Deventer", 102],
      ["Hengelo", 81],
      ["Almelo", 73],
      ["Kampen", 55],
      ["Oldenzaal", 32],
    ],
  ],
  [
    "NL-UT",
    "Utrecht",
    [
      ["Utrecht", 367],
      ["Amersfoort", 160],
      ["Veenendaal", 67],
      ["Zeist", 66],
      ["Nieuwegein", 63],
      ["Houten", 51],
      ["IJsselstein", 34],
    ],
  ],
  [
    "NL-ZE",
    "Zeeland",
    [
      ["Terneuzen", 55],
      ["Middelburg", 49],
      ["Vlissingen", 45],
      ["Goes", 38],
      ["Hulst", 27],
      ["Zierikzee", 11],
    ],
  ],
  [
    "NL-ZH",
    "Zuid-Holland",
    [
      ["Rotterdam", 655],
      ["Den Haag", 560],
      ["Leiden", 127],
      ["Zoetermeer", 126],
      ["Dordrecht", 120],
      ["Alphen aan den Rijn", 113],
      ["Delft", 105],
      ["Schiedam", 80],
      ["Vlaardingen", 75],
      ["Gouda", 74],
      ["Spijkenisse", 73],
    ],
  ],
]);

const BE = country("BE", [
  [
    "BE-VAN",
    "Antwerpen",
    [
      ["Antwerpen", 530],
      ["Mechelen", 87],
      ["Turnhout", 46],
      ["Geel", 41],
      ["Lier", 37],
      ["Mol", 37],
      ["Herentals", 28],
    ],
  ],
  [
    "BE-VLI",
    "Limburg",
    [
      ["Hasselt", 79],
      ["Genk", 67],
      ["Beringen", 47],
      ["Sint-Truiden", 41],
      ["Lommel", 35],
      ["Tongeren", 31],
    ],
  ],
  [
    "BE-VOV",
    "Oost-Vlaanderen",
    [
      ["Gent", 265],
      ["Aalst", 88],
      ["Sint-Niklaas", 80],
      ["Dendermonde", 46],
      ["Lokeren", 42],
      ["Ninove", 40],
      ["Oudenaarde", 32],
    ],
  ],
  [
    "BE-VBR",
    "Vlaams-Brabant",
    [
      ["Leuven", 102],
      ["Vilvoorde", 45],
      ["Dilbeek", 43],
      ["Halle", 40],
      ["Tienen", 35],
      ["Zaventem", 35],
      ["Aarschot", 30],
    ],
  ],
  [
    "BE-VWV",
    "West-Vlaanderen",
    [
      ["Brugge", 119],
      ["Kortrijk", 78],
      ["Oostende", 72],
      ["Roeselare", 64],
      ["Waregem", 38],
      ["Ieper", 35],
      ["Knokke-Heist", 33],
    ],
  ],
  [
    "BE-BRU",
    "Brussel / Bruxelles",
    [
      ["Bruxelles", 190],
      ["Schaerbeek", 133],
      ["Anderlecht", 121],
      ["Molenbeek-Saint-Jean", 97],
      ["Ixelles", 87],
      ["Uccle", 84],
      ["Woluwe-Saint-Lambert", 58],
      ["Etterbeek", 48],
    ],
    [
      ["fr", 0.8],
      ["nl", 0.2],
    ],
  ],
  [
    "BE-WBR",
    "Brabant wallon",
    [
      ["Braine-l'Alleud", 41],
      ["Wavre", 35],
      ["Ottignies-Louvain-la-Neuve", 32],
      ["Waterloo", 30],
      ["Nivelles", 28],
      ["Tubize", 27],
    ],
    FR,
  ],
  [
    "BE-WHT",
    "Hainaut",
    [
      ["Charleroi", 202],
      ["Mons", 95],
      ["La Louvière", 81],
      ["Tournai", 69],
      ["Mouscron", 59],
      ["Binche", 33],
    ],
    FR,
  ],
  [
    "BE-WLG",
    "Liège",
    [
      ["Liège", 197],
      ["Seraing", 64],
      ["Verviers", 55],
      ["Herstal", 40],
      ["Huy", 21],
      ["Eupen", 19],
      ["Spa", 10],
    ],
    [
      ["fr", 0.93],
      ["de", 0.07],
    ],
  ],
  [
    "BE-WLX",
    "Luxembourg",
    [
      ["Arlon", 30],
      ["Marche-en-Famenne", 17],
      ["Aubange", 17],
      ["Bastogne", 16],
      ["Virton", 11],
      ["Durbuy", 11],
    ],
    FR,
  ],
  [
    "BE-WNA",
    "Namur",
    [
      ["Namur", 112],
      ["Sambreville", 28],
      ["Gembloux", 27],
      ["Andenne", 27],
      ["Ciney", 16],
      ["Dinant", 13],
    ],
    FR,
  ],
]);

const DE = country("DE", [
  [
    "DE-BW",
    "Baden-Württemberg",
    [
      ["Stuttgart", 630],
      ["Mannheim", 315],
      ["Karlsruhe", 308],
      ["Freiburg im Breisgau", 236],
      ["Heidelberg", 160],
      ["Ulm", 128],
      ["Heilbronn", 128],
      ["Pforzheim", 127],
      ["Reutlingen", 117],
      ["Tübingen", 92],
      ["Konstanz", 86],
    ],
  ],
  [
    "DE-BY",
    "Bayern",
    [
      ["München", 1510],
      ["Nürnberg", 526],
      ["Augsburg", 301],
      ["Regensburg", 157],
      ["Ingolstadt", 140],
      ["Fürth", 131],
      ["Würzburg", 128],
      ["Erlangen", 116],
      ["Bamberg", 78],
      ["Landshut", 75],
      ["Bayreuth", 74],
      ["Rosenheim", 64],
      ["Passau", 53],
    ],
  ],
  [
    "DE-BE",
    "Berlin",
    [
      ["Berlin", 2200],
      ["Berlin-Kreuzberg", 150],
      ["Berlin-Prenzlauer Berg", 165],
      ["Berlin-Charlottenburg", 130],
      ["Berlin-Neukölln", 170],
      ["Berlin-Spandau", 245],
      ["Berlin-Köpenick", 70],
      ["Berlin-Steglitz", 75],
    ],
  ],
  [
    "DE-BB",
    "Brandenburg",
    [
      ["Potsdam", 185],
      ["Cottbus", 99],
      ["Brandenburg an der Havel", 73],
      ["Frankfurt (Oder)", 58],
      ["Oranienburg", 48],
      ["Falkensee", 45],
      ["Eberswalde", 40],
    ],
  ],
  [
    "DE-HB",
    "Bremen",
    [
      ["Bremen", 480],
      ["Bremerhaven", 115],
      ["Bremen-Vegesack", 33],
      ["Bremen-Schwachhausen", 39],
      ["Bremen-Neustadt", 45],
    ],
  ],
  [
    "DE-HH",
    "Hamburg",
    [
      ["Hamburg", 1250],
      ["Hamburg-Altona", 275],
      ["Hamburg-Wandsbek", 440],
      ["Hamburg-Eimsbüttel", 270],
      ["Hamburg-Harburg", 170],
      ["Hamburg-Bergedorf", 130],
    ],
  ],
  [
    "DE-HE",
    "Hessen",
    [
      ["Frankfurt am Main", 760],
      ["Wiesbaden", 278],
      ["Kassel", 202],
      ["Darmstadt", 160],
      ["Offenbach am Main", 130],
      ["Hanau", 100],
      ["Gießen", 90],
      ["Marburg", 77],
      ["Fulda", 70],
    ],
  ],
  [
    "DE-MV",
    "Mecklenburg-Vorpommern",
    [
      ["Rostock", 209],
      ["Schwerin", 96],
      ["Neubrandenburg", 63],
      ["Stralsund", 59],
      ["Greifswald", 59],
      ["Wismar", 43],
    ],
  ],
  [
    "DE-NI",
    "Niedersachsen",
    [
      ["Hannover", 545],
      ["Braunschweig", 249],
      ["Oldenburg", 170],
      ["Osnabrück", 165],
      ["Wolfsburg", 125],
      ["Göttingen", 118],
      ["Salzgitter", 104],
      ["Hildesheim", 101],
      ["Lüneburg", 78],
      ["Celle", 70],
    ],
  ],
  [
    "DE-NW",
    "Nordrhein-Westfalen",
    [
      ["Köln", 1085],
      ["Düsseldorf", 620],
      ["Dortmund", 590],
      ["Essen", 580],
      ["Duisburg", 500],
      ["Bochum", 365],
      ["Wuppertal", 355],
      ["Bielefeld", 335],
      ["Bonn", 335],
      ["Münster", 318],
      ["Gelsenkirchen", 263],
      ["Mönchengladbach", 262],
      ["Aachen", 250],
      ["Krefeld", 227],
      ["Oberhausen", 210],
    ],
  ],
  [
    "DE-RP",
    "Rheinland-Pfalz",
    [
      ["Mainz", 220],
      ["Ludwigshafen am Rhein", 172],
      ["Koblenz", 114],
      ["Trier", 111],
      ["Kaiserslautern", 100],
      ["Worms", 84],
      ["Neuwied", 65],
      ["Speyer", 51],
    ],
  ],
  [
    "DE-SL",
    "Saarland",
    [
      ["Saarbrücken", 180],
      ["Neunkirchen", 46],
      ["Homburg", 42],
      ["Völklingen", 40],
      ["Sankt Ingbert", 35],
      ["Saarlouis", 34],
      ["Merzig", 30],
    ],
  ],
  [
    "DE-SN",
    "Sachsen",
    [
      ["Leipzig", 620],
      ["Dresden", 565],
      ["Chemnitz", 250],
      ["Zwickau", 88],
      ["Plauen", 65],
      ["Görlitz", 56],
      ["Freiberg", 40],
    ],
  ],
  [
    "DE-ST",
    "Sachsen-Anhalt",
    [
      ["Halle (Saale)", 240],
      ["Magdeburg", 240],
      ["Dessau-Roßlau", 75],
      ["Lutherstadt Wittenberg", 45],
      ["Halberstadt", 40],
      ["Stendal", 40],
      ["Weißenfels", 40],
    ],
  ],
  [
    "DE-SH",
    "Schleswig-Holstein",
    [
      ["Kiel", 248],
      ["Lübeck", 218],
      ["Flensburg", 92],
      ["Neumünster", 80],
      ["Norderstedt", 80],
      ["Elmshorn", 50],
      ["Pinneberg", 44],
    ],
  ],
  [
    "DE-TH",
    "Thüringen",
    [
      ["Erfurt", 215],
      ["Jena", 111],
      ["Gera", 93],
      ["Weimar", 65],
      ["Gotha", 46],
      ["Eisenach", 42],
      ["Nordhausen", 41],
    ],
  ],
]);

const AT = country("AT", [
  [
    "AT-1",
    "Burgenland",
    [
      ["Eisenstadt", 15],
      ["Neusiedl am See", 9],
      ["Oberwart", 8],
      ["Mattersburg", 7],
      ["Pinkafeld", 6],
      ["Güssing", 4],
    ],
  ],
  [
    "AT-2",
    "Kärnten",
    [
      ["Klagenfurt am Wörthersee", 104],
      ["Villach", 66],
      ["Wolfsberg", 25],
      ["Spittal an der Drau", 15],
      ["Feldkirchen in Kärnten", 14],
      ["Sankt Veit an der Glan", 12],
    ],
  ],
  [
    "AT-3",
    "Niederösterreich",
    [
      ["Sankt Pölten", 56],
      ["Wiener Neustadt", 48],
      ["Klosterneuburg", 28],
      ["Baden", 26],
      ["Krems an der Donau", 25],
      ["Amstetten", 24],
      ["Mödling", 21],
      ["Tulln an der Donau", 17],
    ],
  ],
  [
    "AT-4",
    "Oberösterreich",
    [
      ["Linz", 210],
      ["Wels", 63],
      ["Steyr", 38],
      ["Leonding", 29],
      ["Traun", 25],
      ["Braunau am Inn", 17],
      ["Gmunden", 13],
      ["Vöcklabruck", 12],
    ],
  ],
  [
    "AT-5",
    "Salzburg",
    [
      ["Salzburg", 155],
      ["Hallein", 21],
      ["Saalfelden am Steinernen Meer", 17],
      ["Wals-Siezenheim", 13],
      ["Sankt Johann im Pongau", 11],
      ["Bischofshofen", 11],
    ],
  ],
  [
    "AT-6",
    "Steiermark",
    [
      ["Graz", 295],
      ["Leoben", 25],
      ["Kapfenberg", 23],
      ["Bruck an der Mur", 16],
      ["Feldbach", 13],
      ["Leibnitz", 13],
      ["Weiz", 12],
    ],
  ],
  [
    "AT-7",
    "Tirol",
    [
      ["Innsbruck", 132],
      ["Kufstein", 20],
      ["Telfs", 16],
      ["Schwaz", 14],
      ["Hall in Tirol", 14],
      ["Wörgl", 14],
      ["Lienz", 12],
    ],
  ],
  [
    "AT-8",
    "Vorarlberg",
    [
      ["Dornbirn", 50],
      ["Feldkirch", 35],
      ["Bregenz", 30],
      ["Lustenau", 24],
      ["Hohenems", 17],
      ["Bludenz", 15],
    ],
  ],
  [
    "AT-9",
    "Wien",
    [
      ["Wien", 1300],
      ["Wien-Favoriten", 210],
      ["Wien-Donaustadt", 200],
      ["Wien-Floridsdorf", 175],
      ["Wien-Leopoldstadt", 105],
      ["Wien-Ottakring", 100],
    ],
  ],
]);

const CH = country("CH", [
  [
    "CH-AG",
    "Aargau",
    [
      ["Aarau", 22],
      ["Wettingen", 21],
      ["Baden", 20],
      ["Wohlen", 17],
      ["Oftringen", 14],
      ["Rheinfelden", 13],
      ["Brugg", 12],
      ["Zofingen", 12],
    ],
  ],
  [
    "CH-AI",
    "Appenzell Innerrhoden",
    [
      ["Appenzell", 6],
      ["Oberegg", 2],
      ["Schwende", 2],
      ["Gonten", 1.5],
      ["Schlatt-Haslen", 1.2],
    ],
  ],
  [
    "CH-AR",
    "Appenzell Ausserrhoden",
    [
      ["Herisau", 16],
      ["Teufen", 6],
      ["Heiden", 4],
      ["Speicher", 4],
      ["Urnäsch", 2],
      ["Trogen", 2],
    ],
  ],
  [
    "CH-BE",
    "Bern",
    [
      ["Bern", 134],
      ["Biel/Bienne", 55],
      ["Thun", 44],
      ["Köniz", 42],
      ["Burgdorf", 16],
      ["Langenthal", 16],
      ["Steffisburg", 16],
      ["Spiez", 13],
      ["Interlaken", 6],
    ],
    [
      ["de", 0.85],
      ["fr", 0.15],
    ],
  ],
  [
    "CH-BL",
    "Basel-Landschaft",
    [
      ["Allschwil", 21],
      ["Reinach", 19],
      ["Muttenz", 18],
      ["Pratteln", 16],
      ["Binningen", 15],
      ["Liestal", 15],
    ],
  ],
  [
    "CH-BS",
    "Basel-Stadt",
    [
      ["Basel", 173],
      ["Riehen", 21],
      ["Basel-Kleinbasel", 20],
      ["Basel-Gundeldingen", 18],
      ["Bettingen", 1.2],
    ],
  ],
  [
    "CH-FR",
    "Fribourg",
    [
      ["Fribourg", 38],
      ["Bulle", 24],
      ["Villars-sur-Glâne", 12],
      ["Estavayer", 10],
      ["Marly", 8],
      ["Murten", 8],
      ["Düdingen", 8],
    ],
    [
      ["fr", 0.68],
      ["de", 0.32],
    ],
  ],
  [
    "CH-GE",
    "Genève",
    [
      ["Genève", 203],
      ["Vernier", 36],
      ["Lancy", 34],
      ["Meyrin", 26],
      ["Carouge", 22],
      ["Onex", 19],
      ["Thônex", 15],
    ],
    FR,
  ],
  [
    "CH-GL",
    "Glarus",
    [
      ["Glarus", 12.5],
      ["Näfels", 4],
      ["Niederurnen", 4],
      ["Netstal", 3],
      ["Schwanden", 2.5],
    ],
  ],
  [
    "CH-GR",
    "Graubünden",
    [
      ["Chur", 37],
      ["Davos", 11],
      ["Landquart", 9],
      ["Domat/Ems", 8],
      ["St. Moritz", 5],
      ["Ilanz", 5],
      ["Poschiavo", 3.5],
    ],
    [
      ["de", 0.88],
      ["it", 0.12],
    ],
  ],
  [
    "CH-JU",
    "Jura",
    [
      ["Delémont", 12.5],
      ["Porrentruy", 6.7],
      ["Bassecourt", 3.5],
      ["Courrendlin", 3.5],
      ["Saignelégier", 2.6],
    ],
    FR,
  ],
  [
    "CH-LU",
    "Luzern",
    [
      ["Luzern", 83],
      ["Emmen", 31],
      ["Kriens", 28],
      ["Horw", 14],
      ["Ebikon", 14],
      ["Sursee", 10],
      ["Hochdorf", 10],
    ],
  ],
  [
    "CH-NE",
    "Neuchâtel",
    [
      ["Neuchâtel", 45],
      ["La Chaux-de-Fonds", 37],
      ["Le Locle", 10],
      ["Val-de-Travers", 10],
      ["Boudry", 6],
      ["Cortaillod", 5],
    ],
    FR,
  ],
  [
    "CH-NW",
    "Nidwalden",
    [
      ["Stans", 8.5],
      ["Hergiswil", 5.9],
      ["Buochs", 5.6],
      ["Stansstad", 4.8],
      ["Ennetbürgen", 4.8],
      ["Beckenried", 3.7],
    ],
  ],
  [
    "CH-OW",
    "Obwalden",
    [
      ["Sarnen", 10.5],
      ["Kerns", 6.3],
      ["Alpnach", 6.2],
      ["Sachseln", 5.2],
      ["Engelberg", 4.2],
      ["Giswil", 3.6],
    ],
  ],
  [
    "CH-SG",
    "St. Gallen",
    [
      ["St. Gallen", 76],
      ["Rapperswil-Jona", 27],
      ["Wil", 24],
      ["Gossau", 18],
      ["Buchs", 13],
      ["Uzwil", 13],
      ["Altstätten", 12],
      ["Wattwil", 9],
    ],
  ],
  [
    "CH-SH",
    "Schaffhausen",
    [
      ["Schaffhausen", 37],
      ["Neuhausen am Rheinfall", 11],
      ["Thayngen", 5.5],
      ["Beringen", 5],
      ["Stein am Rhein", 3.5],
      ["Hallau", 2.2],
    ],
  ],
  [
    "CH-SO",
    "Solothurn",
    [
      ["Olten", 18.5],
      ["Grenchen", 17.5],
      ["Solothurn", 17],
      ["Zuchwil", 9],
      ["Dornach", 7],
      ["Balsthal", 6],
    ],
  ],
  [
    "CH-SZ",
    "Schwyz",
    [
      ["Freienbach", 17],
      ["Einsiedeln", 16],
      ["Schwyz", 15.5],
      ["Küssnacht", 13.5],
      ["Arth", 12],
      ["Lachen", 9],
    ],
  ],
  [
    "CH-TG",
    "Thurgau",
    [
      ["Frauenfeld", 26],
      ["Kreuzlingen", 22],
      ["Arbon", 15],
      ["Amriswil", 14],
      ["Weinfelden", 12],
      ["Romanshorn", 11],
    ],
  ],
  [
    "CH-TI",
    "Ticino",
    [
      ["Lugano", 63],
      ["Bellinzona", 44],
      ["Locarno", 16],
      ["Mendrisio", 15],
      ["Chiasso", 8],
      ["Ascona", 5.5],
    ],
    IT,
  ],
  [
    "CH-UR",
    "Uri",
    [
      ["Altdorf", 9.5],
      ["Schattdorf", 5.2],
      ["Bürglen", 4.1],
      ["Erstfeld", 3.9],
      ["Flüelen", 2],
      ["Andermatt", 1.5],
    ],
  ],
  [
    "CH-VD",
    "Vaud",
    [
      ["Lausanne", 140],
      ["Yverdon-les-Bains", 30],
      ["Montreux", 26],
      ["Nyon", 22],
      ["Renens", 21],
      ["Vevey", 20],
      ["Pully", 18],
      ["Morges", 16],
    ],
    FR,
  ],
  [
    "CH-VS",
    "Valais",
    [
      ["Sion", 35],
      ["Martigny", 19],
      ["Monthey", 18],
      ["Sierre", 17],
      ["Brig-Glis", 13.5],
      ["Visp", 8],
      ["Zermatt", 5.7],
    ],
    [
      ["fr", 0.65],
      ["de", 0.35],
    ],
  ],
  [
    "CH-ZG",
    "Zug",
    [
      ["Zug", 31],
      ["Baar", 25],
      ["Cham", 17.5],
      ["Risch-Rotkreuz", 11],
      ["Steinhausen", 10],
      ["Hünenberg", 9],
      ["Unterägeri", 9],
    ],
  ],
  [
    "CH-ZH",
    "Zürich",
    [
      ["Zürich", 423],
      ["Winterthur", 117],
      ["Uster", 36],
      ["Dübendorf", 30],
      ["Dietikon", 28],
      ["Wetzikon", 25],
      ["Wädenswil", 25],
      ["Horgen", 23],
      ["Bülach", 22],
      ["Kloten", 21],
    ],
  ],
]);

/**
 * England's regions have no ISO 3166-2 codes (ISO lists England itself, GB-ENG, and its
 * counties), so they carry the ONS ITL1 code behind the GB- prefix; the three other nations use
 * their ISO 3166-2 codes.
 */
const GB = country("GB", [
  [
    "GB-TLC",
    "North East England",
    [
      ["Newcastle upon Tyne", 300],
      ["Sunderland", 175],
      ["Middlesbrough", 140],
      ["Gateshead", 120],
      ["Darlington", 95],
      ["Hartlepool", 90],
      ["Durham", 50],
    ],
  ],
  [
    "GB-TLD",
    "North West England",
    [
      ["Manchester", 550],
      ["Liverpool", 490],
      ["Bolton", 195],
      ["Warrington", 170],
      ["Preston", 145],
      ["Stockport", 140],
      ["Blackpool", 140],
      ["Wigan", 105],
      ["Lancaster", 50],
    ],
  ],
  [
    "GB-TLE",
    "Yorkshire and the Humber",
    [
      ["Leeds", 790],
      ["Sheffield", 560],
      ["Bradford", 350],
      ["Hull", 270],
      ["York", 200],
      ["Huddersfield", 160],
      ["Doncaster", 110],
      ["Wakefield", 100],
      ["Harrogate", 75],
    ],
  ],
  [
    "GB-TLF",
    "East Midlands",
    [
      ["Leicester", 370],
      ["Nottingham", 320],
      ["Derby", 260],
      ["Northampton", 220],
      ["Mansfield", 110],
      ["Lincoln", 100],
      ["Chesterfield", 100],
      ["Loughborough", 60],
    ],
  ],
  [
    "GB-TLG",
    "West Midlands",
    [
      ["Birmingham", 1140],
      ["Coventry", 345],
      ["Wolverhampton", 265],
      ["Stoke-on-Trent", 255],
      ["Walsall", 175],
      ["Solihull", 125],
      ["Worcester", 100],
      ["Shrewsbury", 75],
      ["Hereford", 60],
    ],
  ],
  [
    "GB-TLH",
    "East of England",
    [
      ["Luton", 225],
      ["Peterborough", 215],
      ["Southend-on-Sea", 180],
      ["Norwich", 145],
      ["Cambridge", 145],
      ["Ipswich", 140],
      ["Colchester", 130],
      ["Chelmsford", 110],
      ["Watford", 100],
    ],
  ],
  [
    "GB-TLI",
    "London",
    [
      ["London", 4000],
      ["Croydon", 390],
      ["Ealing", 370],
      ["Wandsworth", 330],
      ["Lambeth", 320],
      ["Greenwich", 290],
      ["Hackney", 260],
      ["Islington", 215],
      ["Camden", 210],
      ["Richmond", 195],
    ],
  ],
  [
    "GB-TLJ",
    "South East England",
    [
      ["Southampton", 250],
      ["Brighton", 230],
      ["Milton Keynes", 230],
      ["Portsmouth", 210],
      ["Reading", 175],
      ["Oxford", 160],
      ["Crawley", 120],
      ["Maidstone", 115],
      ["Guildford", 80],
      ["Canterbury", 55],
    ],
  ],
  [
    "GB-TLK",
    "South West England",
    [
      ["Bristol", 470],
      ["Plymouth", 265],
      ["Bournemouth", 190],
      ["Swindon", 185],
      ["Exeter", 130],
      ["Gloucester", 130],
      ["Cheltenham", 115],
      ["Bath", 95],
      ["Truro", 20],
    ],
  ],
  [
    "GB-WLS",
    "Wales",
    [
      ["Cardiff", 360],
      ["Swansea", 240],
      ["Newport", 160],
      ["Wrexham", 65],
      ["Barry", 55],
      ["Llanelli", 50],
      ["Aberystwyth", 19],
      ["Bangor", 18],
    ],
  ],
  [
    "GB-SCT",
    "Scotland",
    [
      ["Glasgow", 630],
      ["Edinburgh", 525],
      ["Aberdeen", 200],
      ["Dundee", 148],
      ["Paisley", 77],
      ["Inverness", 48],
      ["Perth", 47],
      ["Stirling", 38],
    ],
  ],
  [
    "GB-NIR",
    "Northern Ireland",
    [
      ["Belfast", 345],
      ["Derry", 85],
      ["Bangor", 64],
      ["Lisburn", 45],
      ["Ballymena", 30],
      ["Newry", 27],
      ["Armagh", 15],
      ["Enniskillen", 14],
    ],
  ],
]);

const IE = country("IE", [
  [
    "IE-L",
    "Leinster",
    [
      ["Dublin", 1000],
      ["Drogheda", 45],
      ["Dundalk", 43],
      ["Swords", 40],
      ["Navan", 33],
      ["Bray", 33],
      ["Kilkenny", 27],
      ["Carlow", 27],
      ["Naas", 25],
      ["Athlone", 22],
      ["Wexford", 21],
    ],
  ],
  [
    "IE-M",
    "Munster",
    [
      ["Cork", 225],
      ["Limerick", 100],
      ["Waterford", 60],
      ["Ennis", 27],
      ["Tralee", 26],
      ["Clonmel", 18],
      ["Killarney", 15],
    ],
  ],
  [
    "IE-C",
    "Connacht",
    [
      ["Galway", 85],
      ["Sligo", 20],
      ["Castlebar", 13],
      ["Ballina", 10],
      ["Westport", 7],
      ["Roscommon", 6],
    ],
  ],
  [
    "IE-U",
    "Ulster",
    [
      ["Letterkenny", 22],
      ["Cavan", 11],
      ["Monaghan", 8],
      ["Buncrana", 7],
      ["Ballyshannon", 2.3],
      ["Bundoran", 2],
    ],
  ],
]);

// Denmark, Norway, Sweden and Poland: their regions as GeoNames divides them (Norway's 2020 counties).
const DK = country("DK", [
  [
    "DK-84",
    "Hovedstaden",
    [
      ["København", 640],
      ["Frederiksberg", 95],
      ["Helsingør", 47],
      ["Hillerød", 37],
      ["Ballerup", 30],
    ],
  ],
  [
    "DK-82",
    "Midtjylland",
    [
      ["Aarhus", 285],
      ["Randers", 62],
      ["Horsens", 60],
      ["Silkeborg", 50],
      ["Herning", 50],
      ["Viborg", 41],
    ],
  ],
  [
    "DK-81",
    "Nordjylland",
    [
      ["Aalborg", 143],
      ["Hjørring", 25],
      ["Frederikshavn", 23],
    ],
  ],
  [
    "DK-85",
    "Sjælland",
    [
      ["Roskilde", 51],
      ["Næstved", 43],
      ["Køge", 38],
      ["Slagelse", 35],
      ["Holbæk", 29],
    ],
  ],
  [
    "DK-83",
    "Syddanmark",
    [
      ["Odense", 181],
      ["Esbjerg", 72],
      ["Kolding", 61],
      ["Vejle", 60],
      ["Fredericia", 41],
      ["Sønderborg", 28],
    ],
  ],
]);

const NO = country("NO", [
  ["NO-03", "Oslo", [["Oslo", 580]]],
  [
    "NO-30",
    "Viken",
    [
      ["Drammen", 103],
      ["Lillestrøm", 89],
      ["Fredrikstad", 83],
      ["Asker", 61],
      ["Sarpsborg", 56],
    ],
  ],
  ["NO-46", "Vestland", [["Bergen", 285]]],
  [
    "NO-11",
    "Rogaland",
    [
      ["Stavanger", 144],
      ["Sandnes", 85],
      ["Haugesund", 40],
    ],
  ],
  [
    "NO-50",
    "Trøndelag",
    [
      ["Trondheim", 147],
      ["Levanger", 20],
      ["Steinkjer", 20],
    ],
  ],
  [
    "NO-42",
    "Agder",
    [
      ["Kristiansand", 93],
      ["Arendal", 30],
      ["Grimstad", 24],
    ],
  ],
  [
    "NO-38",
    "Vestfold og Telemark",
    [
      ["Sandefjord", 64],
      ["Skien", 50],
      ["Tønsberg", 38],
      ["Porsgrunn", 34],
    ],
  ],
  [
    "NO-34",
    "Innlandet",
    [
      ["Hamar", 29],
      ["Lillehammer", 28],
      ["Gjøvik", 17],
    ],
  ],
  [
    "NO-15",
    "Møre og Romsdal",
    [
      ["Ålesund", 52],
      ["Molde", 31],
      ["Kristiansund", 24],
    ],
  ],
  [
    "NO-18",
    "Nordland",
    [
      ["Bodø", 34],
      ["Mo i Rana", 18],
    ],
  ],
  [
    "NO-54",
    "Troms og Finnmark",
    [
      ["Tromsø", 64],
      ["Harstad", 20],
      ["Alta", 15],
    ],
  ],
]);

const SE = country("SE", [
  [
    "SE-AB",
    "Stockholms län",
    [
      ["Stockholm", 1000],
      ["Sollentuna", 70],
      ["Huddinge", 90],
      ["Haninge", 74],
    ],
  ],
  [
    "SE-O",
    "Västra Götalands län",
    [
      ["Göteborg", 587],
      ["Borås", 71],
      ["Mölndal", 59],
      ["Trollhättan", 48],
      ["Skövde", 36],
    ],
  ],
  [
    "SE-M",
    "Skåne län",
    [
      ["Malmö", 351],
      ["Helsingborg", 104],
      ["Lund", 87],
      ["Kristianstad", 39],
      ["Landskrona", 32],
    ],
  ],
  [
    "SE-C",
    "Uppsala län",
    [
      ["Uppsala", 177],
      ["Enköping", 22],
    ],
  ],
  [
    "SE-E",
    "Östergötlands län",
    [
      ["Linköping", 106],
      ["Norrköping", 93],
      ["Motala", 30],
    ],
  ],
  [
    "SE-F",
    "Jönköpings län",
    [
      ["Jönköping", 93],
      ["Värnamo", 19],
      ["Nässjö", 17],
    ],
  ],
  [
    "SE-T",
    "Örebro län",
    [
      ["Örebro", 155],
      ["Karlskoga", 27],
    ],
  ],
  [
    "SE-U",
    "Västmanlands län",
    [
      ["Västerås", 127],
      ["Köping", 18],
    ],
  ],
  [
    "SE-D",
    "Södermanlands län",
    [
      ["Eskilstuna", 67],
      ["Nyköping", 38],
      ["Katrineholm", 23],
    ],
  ],
  [
    "SE-N",
    "Hallands län",
    [
      ["Halmstad", 70],
      ["Varberg", 34],
      ["Falkenberg", 24],
    ],
  ],
  [
    "SE-X",
    "Gävleborgs län",
    [
      ["Gävle", 74],
      ["Sandviken", 24],
      ["Hudiksvall", 16],
    ],
  ],
  [
    "SE-AC",
    "Västerbottens län",
    [
      ["Umeå", 130],
      ["Skellefteå", 35],
    ],
  ],
  [
    "SE-Y",
    "Västernorrlands län",
    [
      ["Sundsvall", 57],
      ["Örnsköldsvik", 32],
      ["Härnösand", 18],
    ],
  ],
  [
    "SE-S",
    "Värmlands län",
    [
      ["Karlstad", 61],
      ["Kristinehamn", 18],
    ],
  ],
  [
    "SE-W",
    "Dalarnas län",
    [
      ["Borlänge", 41],
      ["Falun", 37],
      ["Ludvika", 15],
    ],
  ],
  [
    "SE-G",
    "Kronobergs län",
    [
      ["Växjö", 65],
      ["Ljungby", 15],
    ],
  ],
  [
    "SE-K",
    "Blekinge län",
    [
      ["Karlskrona", 66],
      ["Karlshamn", 20],
    ],
  ],
  [
    "SE-H",
    "Kalmar län",
    [
      ["Kalmar", 38],
      ["Västervik", 21],
      ["Oskarshamn", 18],
    ],
  ],
  [
    "SE-BD",
    "Norrbottens län",
    [
      ["Luleå", 43],
      ["Piteå", 23],
      ["Kiruna", 17],
    ],
  ],
  ["SE-Z", "Jämtlands län", [["Östersund", 49]]],
  ["SE-I", "Gotlands län", [["Visby", 23]]],
]);

const PL = country("PL", [
  [
    "PL-MZ",
    "Mazowieckie",
    [
      ["Warszawa", 1700],
      ["Radom", 227],
      ["Płock", 127],
    ],
  ],
  [
    "PL-MA",
    "Małopolskie",
    [
      ["Kraków", 755],
      ["Tarnów", 118],
      ["Nowy Sącz", 84],
    ],
  ],
  [
    "PL-SL",
    "Śląskie",
    [
      ["Katowice", 317],
      ["Częstochowa", 248],
      ["Sosnowiec", 227],
      ["Gliwice", 199],
      ["Zabrze", 192],
      ["Bielsko-Biała", 176],
    ],
  ],
  [
    "PL-WP",
    "Wielkopolskie",
    [
      ["Poznań", 570],
      ["Kalisz", 109],
      ["Konin", 81],
    ],
  ],
  [
    "PL-DS",
    "Dolnośląskie",
    [
      ["Wrocław", 635],
      ["Wałbrzych", 127],
      ["Legnica", 106],
      ["Jelenia Góra", 87],
    ],
  ],
  [
    "PL-LD",
    "Łódzkie",
    [
      ["Łódź", 769],
      ["Piotrków Trybunalski", 80],
    ],
  ],
  [
    "PL-PM",
    "Pomorskie",
    [
      ["Gdańsk", 462],
      ["Gdynia", 245],
      ["Słupsk", 99],
    ],
  ],
  [
    "PL-ZP",
    "Zachodniopomorskie",
    [
      ["Szczecin", 408],
      ["Koszalin", 107],
    ],
  ],
  [
    "PL-KP",
    "Kujawsko-Pomorskie",
    [
      ["Bydgoszcz", 366],
      ["Toruń", 199],
      ["Włocławek", 120],
      ["Grudziądz", 95],
    ],
  ],
  ["PL-LU", "Lubelskie", [["Lublin", 360]]],
  ["PL-PK", "Podkarpackie", [["Rzeszów", 158]]],
  ["PL-PD", "Podlaskie", [["Białystok", 292]]],
  [
    "PL-WN",
    "Warmińsko-Mazurskie",
    [
      ["Olsztyn", 172],
      ["Elbląg", 128],
    ],
  ],
  ["PL-SK", "Świętokrzyskie", [["Kielce", 209]]],
  ["PL-OP", "Opolskie", [["Opole", 128]]],
  [
    "PL-LB",
    "Lubuskie",
    [
      ["Gorzów Wielkopolski", 124],
      ["Zielona Góra", 118],
    ],
  ],
]);

const FIN = country("FI", [
  ["FI-01", "Ahvenanmaa", []],
  [
    "FI-02",
    "Etelä-Karjala",
    [
      ["Lappeenranta", 73],
      ["Imatra", 30],
      ["Ruokolahti", 6],
    ],
  ],
  [
    "FI-03",
    "Etelä-Pohjanmaa",
    [
      ["Seinäjoki", 65],
      ["Kauhajoki", 15],
      ["Lapua", 14],
    ],
  ],
  [
    "FI-04",
    "Etelä-Savo",
    [
      ["Mikkeli", 52],
      ["Savonlinna", 27],
      ["Pieksämäki", 12],
    ],
  ],
  [
    "FI-05",
    "Kainuu",
    [
      ["Kajaani", 36],
      ["Sotkamo", 10],
      ["Kuhmo", 10],
    ],
  ],
  [
    "FI-06",
    "Kanta-Häme",
    [
      ["Hämeenlinna", 68],
      ["Riihimäki", 26],
      ["Forssa", 18],
    ],
  ],
  [
    "FI-07",
    "Keski-Pohjanmaa",
    [
      ["Kokkola", 48],
      ["Kannus", 6],
      ["Kaustinen", 4],
    ],
  ],
  [
    "FI-08",
    "Keski-Suomi",
    [
      ["Jyväskylä", 144],
      ["Laukaa", 17],
      ["Jämsä", 15],
    ],
  ],
  [
    "FI-09",
    "Kymenlaakso",
    [
      ["Kouvola", 80],
      ["Kotka", 55],
      ["Hamina", 22],
    ],
  ],
  [
    "FI-10",
    "Lappi",
    [
      ["Rovaniemi", 64],
      ["Kemi", 23],
      ["Tornio", 21],
    ],
  ],
  [
    "FI-16",
    "Päijät-Häme",
    [
      ["Lahti", 120],
      ["Heinola", 21],
      ["Hollola", 20],
    ],
  ],
  [
    "FI-11",
    "Pirkanmaa",
    [
      ["Tampere", 244],
      ["Nokia", 29],
      ["Kangasala", 24],
    ],
  ],
  [
    "FI-12",
    "Pohjanmaa",
    [
      ["Vaasa", 68],
      ["Pietarsaari", 19],
      ["Mustasaari", 17],
    ],
  ],
  [
    "FI-13",
    "Pohjois-Karjala",
    [
      ["Joensuu", 77],
      ["Lieksa", 14],
      ["Kontiolahti", 12],
    ],
  ],
  [
    "FI-14",
    "Pohjois-Pohjanmaa",
    [
      ["Oulu", 210],
      ["Raahe", 22],
      ["Kuusamo", 17],
    ],
  ],
  [
    "FI-15",
    "Pohjois-Savo",
    [
      ["Kuopio", 122],
      ["Iisalmi", 23],
      ["Varkaus", 22],
    ],
  ],
  [
    "FI-17",
    "Satakunta",
    [
      ["Pori", 83],
      ["Rauma", 37],
      ["Kankaanpää", 12],
    ],
  ],
  [
    "FI-18",
    "Uusimaa",
    [
      ["Helsinki", 659],
      ["Espoo", 257],
      ["Vantaa", 190],
    ],
  ],
  [
    "FI-19",
    "Varsinais-Suomi",
    [
      ["Turku", 195],
      ["Salo", 25],
      ["Raisio", 24],
    ],
  ],
]);

const FRA = country("FR", [
  [
    "FR-ARA",
    "Auvergne-Rhône-Alpes",
    [
      ["Lyon", 523],
      ["Saint-Étienne", 176],
      ["Grenoble", 159],
    ],
  ],
  [
    "FR-BFC",
    "Bourgogne-Franche-Comté",
    [
      ["Dijon", 158],
      ["Besançon", 128],
      ["Belfort", 55],
    ],
  ],
  [
    "FR-BRE",
    "Bretagne",
    [
      ["Rennes", 220],
      ["Brest", 145],
      ["Quimper", 64],
    ],
  ],
  [
    "FR-CVL",
    "Centre-Val de Loire",
    [
      ["Tours", 142],
      ["Orléans", 116],
      ["Bourges", 68],
    ],
  ],
  [
    "FR-20R",
    "Corse",
    [
      ["Ajaccio", 54],
      ["Bastia", 41],
      ["Porto-Vecchio", 12],
    ],
  ],
  [
    "FR-GES",
    "Grand Est",
    [
      ["Strasbourg", 275],
      ["Reims", 197],
      ["Metz", 124],
    ],
  ],
  [
    "FR-HDF",
    "Hauts-de-France",
    [
      ["Lille", 234],
      ["Amiens", 143],
      ["Roubaix", 99],
    ],
  ],
  [
    "FR-IDF",
    "Île-de-France",
    [
      ["Paris", 2139],
      ["Montreuil", 111],
      ["Boulogne-Billancourt", 109],
    ],
  ],
  [
    "FR-NOR",
    "Normandie",
    [
      ["Rouen", 234],
      ["Le Havre", 186],
      ["Caen", 111],
    ],
  ],
  [
    "FR-NAQ",
    "Nouvelle-Aquitaine",
    [
      ["Bordeaux", 261],
      ["Limoges", 141],
      ["Poitiers", 86],
    ],
  ],
  [
    "FR-OCC",
    "Occitanie",
    [
      ["Toulouse", 493],
      ["Montpellier", 248],
      ["Nîmes", 148],
    ],
  ],
  [
    "FR-PDL",
    "Pays de la Loire",
    [
      ["Nantes", 319],
      ["Angers", 168],
      ["Le Mans", 145],
    ],
  ],
  [
    "FR-PAC",
    "Provence-Alpes-Côte d'Azur",
    [
      ["Marseille", 871],
      ["Nice", 343],
      ["Toulon", 169],
    ],
  ],
]);

const ESP = country("ES", [
  [
    "ES-AN",
    "Andalucía",
    [
      ["Sevilla", 684],
      ["Málaga", 578],
      ["Córdoba", 326],
    ],
  ],
  [
    "ES-AR",
    "Aragón",
    [
      ["Zaragoza", 675],
      ["Huesca", 52],
      ["Teruel", 35],
    ],
  ],
  [
    "ES-AS",
    "Asturias",
    [
      ["Gijón", 278],
      ["Oviedo", 220],
      ["Avilés", 79],
    ],
  ],
  [
    "ES-CN",
    "Canarias",
    [
      ["Las Palmas de Gran Canaria", 379],
      ["Santa Cruz de Tenerife", 205],
      ["Telde", 100],
    ],
  ],
  [
    "ES-CB",
    "Cantabria",
    [
      ["Santander", 172],
      ["Torrelavega", 55],
      ["Castro-Urdiales", 32],
    ],
  ],
  [
    "ES-CL",
    "Castilla y León",
    [
      ["Valladolid", 299],
      ["Burgos", 179],
      ["Salamanca", 156],
    ],
  ],
  [
    "ES-CM",
    "Castilla-La Mancha",
    [
      ["Albacete", 170],
      ["Talavera de la Reina", 89],
      ["Toledo", 84],
    ],
  ],
  [
    "ES-CT",
    "Cataluña",
    [
      ["Barcelona", 1620],
      ["Badalona", 220],
      ["Terrassa", 219],
    ],
  ],
  ["ES-CE", "Ceuta", [["Ceuta", 85]]],
  [
    "ES-MD",
    "Comunidad de Madrid",
    [
      ["Madrid", 3256],
      ["Móstoles", 206],
      ["Alcalá de Henares", 205],
    ],
  ],
  [
    "ES-VC",
    "Comunitat Valenciana",
    [
      ["Valencia", 790],
      ["Alicante", 335],
      ["Elche", 230],
    ],
  ],
  [
    "ES-EX",
    "Extremadura",
    [
      ["Badajoz", 148],
      ["Cáceres", 93],
      ["Mérida", 59],
    ],
  ],
  [
    "ES-GA",
    "Galicia",
    [
      ["Vigo", 297],
      ["A Coruña", 246],
      ["Ourense", 105],
    ],
  ],
  [
    "ES-IB",
    "Illes Balears",
    [
      ["Palma", 410],
      ["Calvià", 52],
      ["Ibiza", 49],
    ],
  ],
  [
    "ES-RI",
    "La Rioja",
    [
      ["Logroño", 152],
      ["Calahorra", 25],
      ["Arnedo", 14],
    ],
  ],
  ["ES-ML", "Melilla", [["Melilla", 86]]],
  [
    "ES-NC",
    "Navarra",
    [
      ["Pamplona", 210],
      ["Tudela", 35],
      ["Segundo Ensanche", 23],
    ],
  ],
  [
    "ES-PV",
    "País Vasco",
    [
      ["Bilbao", 346],
      ["Vitoria-Gasteiz", 249],
      ["San Sebastián", 185],
    ],
  ],
  [
    "ES-MC",
    "Región de Murcia",
    [
      ["Murcia", 460],
      ["Cartagena", 212],
      ["Lorca", 92],
    ],
  ],
]);

const ITA = country("IT", [
  [
    "IT-65",
    "Abruzzo",
    [
      ["Pescara", 120],
      ["Teramo", 54],
      ["Chieti", 44],
    ],
  ],
  [
    "IT-77",
    "Basilicata",
    [
      ["Matera", 60],
      ["Potenza", 56],
      ["Lavello", 13],
    ],
  ],
  [
    "IT-78",
    "Calabria",
    [
      ["Reggio Calabria", 182],
      ["Catanzaro", 79],
      ["Lamezia Terme", 71],
    ],
  ],
  [
    "IT-72",
    "Campania",
    [
      ["Napoli", 909],
      ["Salerno", 126],
      ["Giugliano in Campania", 80],
    ],
  ],
  [
    "IT-45",
    "Emilia-Romagna",
    [
      ["Bologna", 395],
      ["Parma", 198],
      ["Modena", 185],
    ],
  ],
  [
    "IT-36",
    "Friuli-Venezia Giulia",
    [
      ["Trieste", 204],
      ["Udine", 100],
      ["Pordenone", 50],
    ],
  ],
  [
    "IT-62",
    "Lazio",
    [
      ["Roma", 2319],
      ["Latina", 76],
      ["Aprilia", 75],
    ],
  ],
  [
    "IT-42",
    "Liguria",
    [
      ["Genova", 580],
      ["La Spezia", 93],
      ["Savona", 61],
    ],
  ],
  [
    "IT-25",
    "Lombardia",
    [
      ["Milano", 1371],
      ["Brescia", 200],
      ["Monza", 124],
    ],
  ],
  [
    "IT-57",
    "Marche",
    [
      ["Ancona", 90],
      ["Pesaro", 77],
      ["Fano", 61],
    ],
  ],
  [
    "IT-67",
    "Molise",
    [
      ["Campobasso", 49],
      ["Termoli", 31],
      ["Isernia", 17],
    ],
  ],
  [
    "IT-21",
    "Piemonte",
    [
      ["Torino", 847],
      ["Novara", 102],
      ["Alessandria", 92],
    ],
  ],
  [
    "IT-75",
    "Puglia",
    [
      ["Bari", 316],
      ["Taranto", 199],
      ["Foggia", 137],
    ],
  ],
  [
    "IT-88",
    "Sardegna",
    [
      ["Cagliari", 149],
      ["Sassari", 92],
      ["Olbia", 60],
    ],
  ],
  [
    "IT-82",
    "Sicilia",
    [
      ["Palermo", 648],
      ["Catania", 312],
      ["Messina", 220],
    ],
  ],
  [
    "IT-52",
    "Toscana",
    [
      ["Firenze", 367],
      ["Prato", 195],
      ["Livorno", 157],
    ],
  ],
  [
    "IT-32",
    "Trentino-Alto Adige",
    [
      ["Trento", 121],
      ["Bolzano", 107],
      ["Merano", 41],
    ],
  ],
  [
    "IT-55",
    "Umbria",
    [
      ["Perugia", 120],
      ["Terni", 111],
      ["Foligno", 57],
    ],
  ],
  [
    "IT-23",
    "Valle d'Aosta",
    [
      ["Aosta", 35],
      ["Chatillon", 4],
      ["Saint-Vincent", 4],
    ],
  ],
  [
    "IT-34",
    "Veneto",
    [
      ["Verona", 258],
      ["Padova", 204],
      ["Vicenza", 112],
    ],
  ],
]);

const LUX = country("LU", [
  [
    "LU-CA",
    "Capellen",
    [
      ["Mamer", 5],
      ["Bascharage", 5],
      ["Steinfort", 2],
    ],
  ],
  [
    "LU-CL",
    "Clervaux",
    [
      ["Troisvierges", 1],
      ["Clervaux", 1],
    ],
  ],
  [
    "LU-DI",
    "Diekirch",
    [
      ["Diekirch", 7],
      ["Ettelbruck", 6],
      ["Warken", 1],
    ],
  ],
  [
    "LU-EC",
    "Echternach",
    [
      ["Echternach", 5],
      ["Beaufort", 1],
      ["Consdorf", 1],
    ],
  ],
  [
    "LU-ES",
    "Esch-sur-Alzette",
    [
      ["Esch-sur-Alzette", 28],
      ["Dudelange", 18],
      ["Schifflange", 8],
    ],
  ],
  [
    "LU-GR",
    "Grevenmacher",
    [
      ["Grevenmacher", 5],
      ["Junglinster", 2],
      ["Wasserbillig", 2],
    ],
  ],
  [
    "LU-LU",
    "Luxembourg",
    [
      ["Luxembourg", 77],
      ["Strassen", 6],
      ["Bertrange", 6],
    ],
  ],
  [
    "LU-ME",
    "Mersch",
    [
      ["Mersch", 3],
      ["Bissen", 3],
      ["Lintgen", 2],
    ],
  ],
  ["LU-RD", "Redange", [["Redange-sur-Attert", 1]]],
  [
    "LU-RM",
    "Remich",
    [
      ["Remich", 3],
      ["Mondorf-les-Bains", 3],
    ],
  ],
  ["LU-VD", "Vianden", [["Vianden", 2]]],
  ["LU-WI", "Wiltz", [["Wiltz", 5]]],
]);

const PRT = country("PT", [
  [
    "PT-01",
    "Aveiro",
    [
      ["Aveiro", 54],
      ["Espinho", 33],
      ["São João da Madeira", 22],
    ],
  ],
  [
    "PT-02",
    "Beja",
    [
      ["Beja", 35],
      ["Moura", 9],
      ["Almodôvar", 7],
    ],
  ],
  [
    "PT-03",
    "Braga",
    [
      ["Braga", 121],
      ["Guimarães", 41],
      ["Esposende", 35],
    ],
  ],
  [
    "PT-04",
    "Bragança",
    [
      ["Bragança", 34],
      ["Mirandela", 13],
      ["Vinhais", 9],
    ],
  ],
  [
    "PT-05",
    "Castelo Branco",
    [
      ["Castelo Branco", 33],
      ["Covilhã", 18],
      ["Fundão", 10],
    ],
  ],
  [
    "PT-06",
    "Coimbra",
    [
      ["Coimbra", 107],
      ["Figueira da Foz", 47],
      ["Condeixa-a-Nova", 17],
    ],
  ],
  [
    "PT-07",
    "Évora",
    [
      ["Évora", 56],
      ["Montemor-o-Novo", 13],
      ["Vendas Novas", 11],
    ],
  ],
  [
    "PT-08",
    "Faro",
    [
      ["Faro", 41],
      ["Portimão", 38],
      ["Olhão", 29],
    ],
  ],
  [
    "PT-09",
    "Guarda",
    [
      ["Guarda", 32],
      ["Vila Nova de Foz Côa", 7],
      ["Seia", 7],
    ],
  ],
  [
    "PT-10",
    "Leiria",
    [
      ["Leiria", 45],
      ["Marinha Grande", 29],
      ["Caldas da Rainha", 27],
    ],
  ],
  [
    "PT-11",
    "Lisboa",
    [
      ["Lisboa", 518],
      ["Amadora", 179],
      ["Algueirão", 66],
    ],
  ],
  [
    "PT-12",
    "Portalegre",
    [
      ["Portalegre", 16],
      ["Ponte de Sôr", 11],
      ["Elvas", 10],
    ],
  ],
  [
    "PT-13",
    "Porto",
    [
      ["Porto", 250],
      ["Vila Nova de Gaia", 71],
      ["Felgueiras", 58],
    ],
  ],
  [
    "PT-30",
    "Região Autónoma da Madeira",
    [
      ["Funchal", 101],
      ["Câmara de Lobos", 32],
      ["Machico", 13],
    ],
  ],
  [
    "PT-20",
    "Região Autónoma dos Açores",
    [
      ["Ponta Delgada", 20],
      ["Lagoa", 14],
      ["Angra do Heroísmo", 12],
    ],
  ],
  [
    "PT-14",
    "Santarém",
    [
      ["Santarém", 29],
      ["Entroncamento", 20],
      ["Tomar", 19],
    ],
  ],
  [
    "PT-15",
    "Setúbal",
    [
      ["Setúbal", 117],
      ["Barreiro", 51],
      ["Sesimbra", 41],
    ],
  ],
  [
    "PT-16",
    "Viana do Castelo",
    [
      ["Ponte de Lima", 45],
      ["Viana do Castelo", 36],
      ["Arcos de Valdevez", 23],
    ],
  ],
  [
    "PT-17",
    "Vila Real",
    [
      ["Chaves", 18],
      ["Vila Real", 17],
      ["Alijó", 12],
    ],
  ],
  [
    "PT-18",
    "Viseu",
    [
      ["Viseu", 26],
      ["Santa Comba Dão", 12],
      ["Lamego", 11],
    ],
  ],
]);

/**
 * Every region, in the order that gives each its id: the demo's first eleven countries as the seed
 * loaded them before migration 0034, then the countries added with it. Append only.
 */
export const REGIONS: readonly Region[] = [
  ...NL,
  ...BE,
  ...DE,
  ...AT,
  ...CH,
  ...GB,
  ...IE,
  ...DK,
  ...NO,
  ...SE,
  ...PL,
  ...FIN,
  ...FRA,
  ...ESP,
  ...ITA,
  ...LUX,
  ...PRT,
].map((r, i) => ({
  ...r,
  id: i + 1,
  cities: r.cities.map(([name, weight]) => ({ name, weight })),
}));

export const REGIONS_BY_COUNTRY = Object.fromEntries(
  PLACE_COUNTRIES.map((c) => [c, REGIONS.filter((r) => r.country === c)]),
) as unknown as Readonly<Record<PlaceCountry, readonly Region[]>>;

export function regionWeight(region: Region): number {
  return region.cities.reduce((sum, c) => sum + c.weight, 0);
}
