/** Common real first names per demo country and gender; Belgian and Swiss lists mix their languages. */
import type { DemoCountry } from "./regions";

export type Gender = "male" | "female";

const words = (s: string): readonly string[] => s.trim().split(/\s+/);

export const FIRST_NAMES: Readonly<Record<DemoCountry, Readonly<Record<Gender, readonly string[]>>>> = {
  NL: {
    female: words(`
      Sanne Lotte Anouk Femke Lisa Eva Iris Laura Fleur Esther Marieke Ilse Linda Mariska Sandra Monique Wendy Kim
      Nicole Petra Ingrid Anja Marloes Manon Roos Sophie Julia Emma Anne Inge Yvonne Karin Saskia Bianca Chantal
      Danielle Els Mirjam Noor Maaike Jolanda Annemieke Tessa Merel Nienke`),
    male: words(`
      Jeroen Bas Thijs Joost Ruben Sander Martijn Niels Dennis Mark Erik Kees Wim Henk Jan Pieter Maarten Rick Stefan
      Tim Koen Bram Daan Lars Sem Jasper Robin Mike Patrick Marco Michel Richard Vincent Arjen Gert Hans Peter Rob
      Frank Wouter Jelle Sjoerd Roel`),
  },
  BE: {
    female: words(`
      Lien Ann Els Griet Sofie Lore Sarah Julie Charlotte Marie Laura Elise Hanne Katrien Veerle Inge Kaat Lotte Fien
      Tine Evelien Nathalie Céline Aurélie Camille Manon Pauline Mélanie Stéphanie Isabelle Caroline Virginie Sophie
      Valérie Delphine Amélie Justine Émilie Chloé Océane Axelle Anaïs`),
    male: words(`
      Pieter Jens Wout Bart Tom Kristof Stijn Jeroen Koen Dries Sven Gert Joris Geert Luc Dirk Frederik Wim Jonas Arne
      Thomas Nicolas Maxime Julien Antoine Olivier Laurent Benoît Cédric François Mathieu Sébastien Jérôme Philippe
      Pierre Arnaud Quentin Simon Lucas Hugo Kevin Yannick`),
  },
  DE: {
    female: words(`
      Anna Julia Laura Lena Sarah Katharina Lisa Hannah Sabine Claudia Petra Susanne Andrea Nicole Stefanie Melanie
      Jessica Sandra Kerstin Christina Nadine Anja Birgit Heike Ute Monika Jana Franziska Johanna Lea Marie Sophie
      Miriam Carina Jasmin Vanessa Tanja Simone Silke Daniela Martina Ines`),
    male: words(`
      Thomas Michael Andreas Stefan Christian Markus Alexander Daniel Tobias Sebastian Jan Florian Matthias Frank
      Jürgen Uwe Klaus Dirk Torsten Sven Jens Lukas Felix Jonas Maximilian Philipp Moritz Niklas Tim David Patrick
      Oliver Ralf Holger Marco Kai Benjamin Dominik Fabian Marcel Björn Heiko`),
  },
  AT: {
    female: words(`
      Anna Katharina Lisa Julia Sarah Theresa Magdalena Johanna Viktoria Elisabeth Christina Barbara Sabine Andrea
      Claudia Birgit Verena Karin Monika Martina Petra Stefanie Melanie Nicole Daniela Bianca Carina Lena Hannah Sophie
      Marlene Valentina Elena Miriam Kerstin Manuela Eva Silvia Gabriele Renate Doris Romana`),
    male: words(`
      Lukas Florian Stefan Michael Thomas Andreas Markus Christian Martin Daniel Alexander Johannes David Dominik
      Philipp Matthias Patrick Manuel Simon Tobias Jakob Maximilian Sebastian Gerhard Wolfgang Franz Josef Herbert
      Günther Karl Peter Robert Bernhard Harald Roman Clemens Raphael Fabian Elias Paul Georg Werner`),
  },
  CH: {
    female: words(`
      Anna Laura Sarah Lea Nina Sandra Monika Ursula Barbara Regula Franziska Corinne Nadia Andrea Claudia Daniela
      Sabrina Jasmin Seraina Mirjam Deborah Céline Chloé Camille Léa Manon Aline Noémie Mélanie Sophie Valérie
      Isabelle Giulia Chiara Francesca Sara Martina Elena Alessia Federica Silvia Michela`),
    male: words(`
      Lukas Reto Urs Beat Daniel Thomas Marco Stefan Patrick Simon Martin Andreas Christoph Markus Adrian Roger Fabian
      Pascal Samuel Jonas Nicolas David Luca Julien Cédric Mathieu Olivier Laurent Yves Sébastien Loïc Alain Matteo
      Alessandro Andrea Lorenzo Davide Giorgio Fabio Mattia Gianluca Dario`),
  },
  GB: {
    female: words(`
      Emma Olivia Sophie Charlotte Emily Jessica Hannah Lucy Amy Rebecca Sarah Laura Rachel Claire Nicola Kelly Gemma
      Hayley Louise Victoria Katie Chloe Lauren Megan Holly Ellie Alice Grace Isabel Amelia Zoe Helen Joanne Karen
      Julie Tracey Lisa Natalie Kirsty Fiona Rhiannon Heather`),
    male: words(`
      James Oliver Jack Harry George Thomas William Daniel Matthew Joshua Samuel Benjamin Adam Luke Ryan Liam Callum
      Jamie Ben Tom Chris Mark Paul Steven Andrew David Richard Stuart Gareth Craig Neil Simon Lee Darren Gavin Jason
      Ross Alistair Euan Rhys Owen Scott Dean`),
  },
  IE: {
    female: words(`
      Aoife Siobhán Niamh Ciara Sinéad Orla Clodagh Gráinne Róisín Caoimhe Aisling Saoirse Eimear Deirdre Áine Emma
      Sarah Laura Rachel Katie Lisa Claire Mary Catherine Fiona Gillian Sharon Tara Louise Amy Jennifer Nicola Emer
      Maeve Sorcha Úna Méabh Ailbhe Eilís Shauna Lorraine Yvonne`),
    male: words(`
      Seán Conor Ciarán Cian Darragh Eoin Oisín Pádraig Diarmuid Cathal Colm Dónal Fionn Ronan Niall Declan Kieran
      Brian Kevin Shane Mark David Michael John Patrick James Paul Stephen Aidan Barry Gary Alan Derek Liam Eamon
      Tadhg Rory Killian Fergal Enda Dermot Brendan`),
  },
  DK: {
    female: words(`
      Anne Mette Kirsten Hanne Helle Susanne Lene Camilla Maria Louise Charlotte Pia Tina Karina Rikke Line Julie Sofie
      Ida Emma Freja Cecilie Signe Mathilde Laura Maja Christina Trine Marianne Birgitte Dorthe Malene Stine Sanne`),
    male: words(`
      Jens Peter Lars Henrik Søren Niels Anders Thomas Michael Jesper Rasmus Martin Morten Christian Mads Jonas Frederik
      Mikkel Kasper Emil Oliver William Magnus Tobias Anders Bo Klaus Torben Jakob Simon Nikolaj Kristian`),
  },
  NO: {
    female: words(`
      Anne Inger Kari Marit Ingrid Liv Eva Berit Astrid Hilde Nina Silje Ingvild Marte Ida Nora Emma Sara Thea Maja
      Ingeborg Kristin Tone Camilla Mari Hege Elin Guro Randi Ragnhild Solveig Siri Synnøve Tuva`),
    male: words(`
      Jan Per Bjørn Ole Lars Kjell Knut Arne Svein Thomas Hans Geir Tor Morten Terje Espen Håkon Magnus Sindre Eirik
      Øyvind Jonas Henrik Sander Mathias Jakob Andreas Kristoffer Erlend Torstein Vegard Audun Sigurd`),
  },
  SE: {
    female: words(`
      Anna Eva Maria Karin Kristina Lena Sara Emma Elin Ida Johanna Malin Linnea Sofia Maja Elsa Alice Ebba Wilma Frida
      Hanna Matilda Moa Julia Klara Annika Camilla Therese Ulrika Jessica Lina Åsa Agneta Helena`),
    male: words(`
      Lars Anders Johan Per Erik Karl Mikael Peter Jan Thomas Daniel Fredrik Magnus Andreas Stefan Mattias Henrik Jonas
      Oskar Viktor Axel Gustav Emil Elias Hugo Filip Olle Björn Niklas Tobias Marcus Rasmus Joakim`),
  },
  PL: {
    female: words(`
      Anna Maria Katarzyna Małgorzata Agnieszka Barbara Ewa Magdalena Joanna Aleksandra Monika Zofia Natalia Karolina
      Justyna Marta Paulina Dorota Beata Julia Zuzanna Weronika Kinga Patrycja Sylwia Iwona Izabela Agata Emilia Wiktoria`),
    male: words(`
      Piotr Krzysztof Andrzej Tomasz Paweł Michał Marcin Jakub Adam Łukasz Mateusz Marek Grzegorz Dariusz Kamil Rafał
      Wojciech Maciej Bartosz Szymon Kacper Filip Dawid Sebastian Damian Robert Jacek Przemysław Artur Hubert`),
  },
  FI: {
    female: words(`
      Anna Maria Laura Emma Sara Aino Helmi Venla Ella Sofia Aada Emilia Iida Johanna Katja Minna Sanna Satu Tiina
      Hanna Jenni Riikka Päivi Pirjo Sari Anu Heidi Elina Noora Milla Pauliina Outi Kaisa Marjut Tuuli`),
    male: words(`
      Juha Mikko Timo Matti Jari Antti Kari Pekka Jukka Mika Janne Sami Ville Tuomas Lauri Eino Onni Väinö Leevi Aleksi
      Joonas Niko Petri Markku Heikki Ilkka Olli Jussi Teemu Topi Arttu Eetu Valtteri`),
  },
  FR: {
    female: words(`
      Marie Camille Léa Chloé Manon Emma Inès Jade Louise Alice Sarah Julie Laura Pauline Claire Sophie Céline Aurélie
      Émilie Nathalie Isabelle Sandrine Valérie Stéphanie Caroline Amandine Élodie Mathilde Charlotte Margaux Océane Anaïs`),
    male: words(`
      Nicolas Julien Thomas Pierre Alexandre Maxime Antoine Romain Sébastien Guillaume Mathieu Hugo Lucas Louis Gabriel
      Arthur Jules Paul Théo Baptiste Olivier Laurent Christophe Philippe Éric Frédéric Vincent Jérôme Benoît Clément`),
  },
  ES: {
    female: words(`
      María Lucía Carmen Laura Marta Ana Paula Sara Elena Cristina Isabel Raquel Alba Andrea Irene Nuria Silvia Beatriz
      Patricia Rocío Pilar Teresa Sofía Claudia Marina Noelia Lorena Natalia Julia Inés Carla Miriam`),
    male: words(`
      Javier David Daniel Alejandro Pablo Carlos Sergio Jorge Manuel Antonio José Juan Francisco Miguel Álvaro Adrián
      Diego Rubén Iván Raúl Óscar Alberto Fernando Luis Hugo Mario Marcos Víctor Gonzalo Ignacio Jaime Rafael`),
  },
  IT: {
    female: words(`
      Giulia Francesca Chiara Sara Martina Valentina Alessandra Federica Elena Silvia Laura Paola Roberta Simona Giorgia
      Elisa Serena Ilaria Alice Sofia Aurora Beatrice Camilla Veronica Arianna Anna Maria Claudia Monica Daniela Marta`),
    male: words(`
      Marco Alessandro Andrea Luca Matteo Francesco Lorenzo Davide Simone Federico Stefano Giuseppe Antonio Giovanni
      Paolo Roberto Riccardo Gabriele Leonardo Tommaso Fabio Massimo Emanuele Nicola Daniele Pietro Filippo Enrico Mattia`),
  },
};
