/**
 * What the people in the generated conversations do, each thing said in several ways. A fact is
 * told in a turn with one phrasing and asked about with another, so that a question shares only
 * some of its words with the turn that answers it (the paraphrase gap of real conversations), and
 * `general` is the broader word an open-domain question uses where the turn names only the
 * specific thing (Kyoto / Japan, violin / string instrument).
 */
export interface FactKind {
  kind: string;
  /** The group a multi-hop question gathers ("hobbies", "trips"). */
  group: 'trips' | 'hobbies' | 'family' | 'work' | 'health' | 'home';
  values: { value: string; general: string }[];
  /** How the person says it; `{v}` the value, `{when}` a relative time ("yesterday"). */
  tell: string[];
  /** Another speaker asking about it; the answer then comes in the next turn, told by `reply`. */
  ask: string[];
  /** The answer to `ask`, without naming the topic (the question matches the turn before). */
  reply: string[];
  /** Single-hop questions; `{P}` the person. */
  question: string[];
  /** Open-domain questions, answered only by knowing that `{v}` is a kind of `{g}`. */
  open: string[];
  /** A temporal question about when it happened. */
  when: string[];
  /** Turns by anyone that share the topic's words but say nothing about the person's fact. */
  distract: string[];
}

export const FACT_KINDS: FactKind[] = [
  {
    kind: 'trip',
    group: 'trips',
    values: [
      { value: 'Kyoto', general: 'Japan' },
      { value: 'Lisbon', general: 'Portugal' },
      { value: 'Marrakesh', general: 'Morocco' },
      { value: 'Reykjavik', general: 'Iceland' },
      { value: 'Cusco', general: 'Peru' },
      { value: 'Hanoi', general: 'Vietnam' },
      { value: 'Edinburgh', general: 'Scotland' },
      { value: 'Florence', general: 'Italy' },
      { value: 'Vancouver', general: 'Canada' },
      { value: 'Cape Town', general: 'South Africa' },
      { value: 'Seville', general: 'Spain' },
      { value: 'Krakow', general: 'Poland' },
    ],
    tell: [
      'Just got back from {v} {when}, the food alone was worth the flight.',
      'I spent a few days wandering around {v} {when}, still thinking about those little streets.',
      'We finally did the {v} trip {when}! I took about a thousand photos.',
      'Flew out to {v} {when} for a long weekend, it was exactly the break I needed.',
    ],
    ask: ['How was the big trip you were planning?', 'So did you end up going away like you said?'],
    reply: [
      'Oh it was wonderful, {v} was even better than the pictures.',
      'Yes! We went to {v} {when}, I could live there honestly.',
    ],
    question: [
      'Where did {P} go on holiday?',
      'Which city did {P} travel to?',
      'What place did {P} visit on vacation?',
    ],
    open: ['Which country has {P} been to on a trip?', 'What country did {P} take a vacation in?'],
    when: ['When did {P} go to {v}?', 'When was {P} in {v}?'],
    distract: [
      'Travelling is so expensive these days, I keep putting off booking anything.',
      'My cousin keeps sending me holiday pictures and I am jealous every time.',
      'I would love a vacation somewhere warm, work has been nonstop.',
    ],
  },
  {
    kind: 'instrument',
    group: 'hobbies',
    values: [
      { value: 'violin', general: 'string instrument' },
      { value: 'cello', general: 'string instrument' },
      { value: 'flute', general: 'woodwind instrument' },
      { value: 'clarinet', general: 'woodwind instrument' },
      { value: 'trumpet', general: 'brass instrument' },
      { value: 'drums', general: 'percussion instrument' },
      { value: 'piano', general: 'keyboard instrument' },
      { value: 'ukulele', general: 'string instrument' },
    ],
    tell: [
      'I signed up for {v} lessons {when}, my fingers are so sore already.',
      'Started practising the {v} {when}, the neighbours must hate me.',
      'My teacher says my {v} playing is finally getting somewhere, I practised every evening.',
    ],
    ask: ['Are you still doing those music lessons?', 'How is the practising going?'],
    reply: ['Every day! The {v} is harder than I expected but I love it.', 'Slowly, I had my third {v} lesson {when}.'],
    question: ['What instrument is {P} learning to play?', 'Which instrument did {P} pick up?'],
    open: ['Does {P} play a {g}?', 'What kind of {g} does {P} practise?'],
    when: ['When did {P} start the {v} lessons?'],
    distract: [
      'I went to a concert with my sister and the band was so loud.',
      'I always wished I had learned an instrument as a kid.',
      'The music at that wedding was terrible, honestly.',
    ],
  },
  {
    kind: 'pet',
    group: 'home',
    values: [
      { value: 'Biscuit', general: 'puppy' },
      { value: 'Pepper', general: 'kitten' },
      { value: 'Mango', general: 'parrot' },
      { value: 'Noodle', general: 'rabbit' },
      { value: 'Ziggy', general: 'puppy' },
      { value: 'Olive', general: 'kitten' },
      { value: 'Captain', general: 'tortoise' },
    ],
    tell: [
      'We brought home a little {g} {when}, we named it {v}.',
      '{v} is our new {g}, we picked it up from the shelter {when}.',
      'Meet {v}! The newest member of the family arrived {when}, a tiny {g}.',
    ],
    ask: ['Did you go through with adopting from the shelter?', 'How is the newest member of the family?'],
    reply: ['{v} is settling in great, chewing everything in sight.', 'We did! We called the little one {v}.'],
    question: ['What is the name of the pet {P} adopted?', 'What did {P} call the new animal?'],
    open: ['What animal did {P} adopt, a dog, a cat or something else?'],
    when: ['When did {P} get {v}?'],
    distract: [
      'My landlord does not allow animals, which is so unfair.',
      'I saw the cutest dog at the park and nearly cried.',
      'Pets are a lot of work, I do not know how people manage.',
    ],
  },
  {
    kind: 'job',
    group: 'work',
    values: [
      { value: 'nurse at the children hospital', general: 'healthcare' },
      { value: 'baker at a sourdough bakery', general: 'food' },
      { value: 'data analyst at a logistics firm', general: 'technology' },
      { value: 'teacher at the primary school', general: 'education' },
      { value: 'carpenter for a furniture workshop', general: 'crafts' },
      { value: 'paramedic with the ambulance service', general: 'healthcare' },
      { value: 'web developer at a startup', general: 'technology' },
      { value: 'librarian at the city library', general: 'education' },
    ],
    tell: [
      'Big news, I accepted an offer {when}, I am going to be a {v}!',
      'I start as a {v} next month, I signed the contract {when}.',
      'After all those interviews I am finally a {v}, they called me {when}.',
    ],
    ask: ['Did you hear back after the interview?', 'Any news on the job hunt?'],
    reply: ['They said yes! I will be a {v}.', 'I got it, starting as a {v} soon, I am thrilled.'],
    question: ['What new job did {P} get?', 'What position was {P} hired for?', 'What does {P} do for work now?'],
    open: ['Which field does {P} work in, {g} or something else?', 'Is {P} employed in {g}?'],
    when: ['When did {P} get the job as a {v}?'],
    distract: [
      'Work has been so stressful, my manager keeps moving deadlines.',
      'I have been thinking about changing careers but it is scary.',
      'Job interviews make me so nervous, I never know what to say.',
    ],
  },
  {
    kind: 'injury',
    group: 'health',
    values: [
      { value: 'ankle', general: 'leg' },
      { value: 'wrist', general: 'arm' },
      { value: 'knee', general: 'leg' },
      { value: 'shoulder', general: 'arm' },
      { value: 'back', general: 'spine' },
    ],
    tell: [
      'I twisted my {v} {when} playing football, it is all swollen.',
      'Ugh, I hurt my {v} {when} when I slipped on the stairs.',
      'The doctor says my {v} needs rest for a few weeks after I fell {when}.',
    ],
    ask: ['Are you feeling better after the accident?', 'How are you healing up?'],
    reply: ['Slowly, the {v} still aches when it rains.', 'Getting there, the physio is working on my {v}.'],
    question: ['What injury did {P} have?', 'How did {P} get hurt?', 'What part of the body did {P} injure?'],
    open: ['Did {P} injure an {g} or a {g}?'],
    when: ['When did {P} hurt the {v}?'],
    distract: [
      'I have been going to the gym more, trying to stay healthy.',
      'The doctor was running late again, I waited an hour.',
      'Everyone at work is sick this week, I hope I do not catch it.',
    ],
  },
  {
    kind: 'class',
    group: 'hobbies',
    values: [
      { value: 'pottery', general: 'art' },
      { value: 'salsa dancing', general: 'dance' },
      { value: 'watercolour painting', general: 'art' },
      { value: 'rock climbing', general: 'sport' },
      { value: 'Italian cooking', general: 'cooking' },
      { value: 'photography', general: 'art' },
      { value: 'Spanish', general: 'language' },
      { value: 'yoga', general: 'sport' },
    ],
    tell: [
      'I joined a {v} class {when}, it is the best part of my week.',
      'Went to my first {v} workshop {when}, I was hopeless but had fun.',
      'I have been taking {v} classes on Tuesday nights since {when}.',
    ],
    ask: ['What is the new thing you do on Tuesdays?', 'You mentioned trying something new, how did it go?'],
    reply: ['It is {v}! I am terrible at it but I keep going.', 'Loved it, {v} is so relaxing after work.'],
    question: ['What class did {P} sign up for?', 'What new hobby did {P} take up?'],
    open: ['Is {P} doing any {g} activity?', 'Which kind of {g} class does {P} attend?'],
    when: ['When did {P} start {v}?'],
    distract: [
      'I keep meaning to find a hobby but I never have the time.',
      'My evenings are just cooking and sleeping at the moment.',
      'Classes in the city are so expensive now.',
    ],
  },
  {
    kind: 'relative',
    group: 'family',
    values: [
      { value: 'sister got engaged', general: 'wedding' },
      { value: 'brother moved to Berlin', general: 'move' },
      { value: 'grandmother turned ninety', general: 'birthday' },
      { value: 'cousin had a baby girl', general: 'birth' },
      { value: 'dad retired from the railway', general: 'retirement' },
      { value: 'mum opened a flower shop', general: 'business' },
    ],
    tell: [
      'Family news: my {v} {when}, we are all so happy.',
      'So my {v} {when} and I still cannot believe it.',
      'We had a big dinner {when} because my {v}.',
    ],
    ask: ['What was the family celebration about?', 'How is everyone at home?'],
    reply: ['All good, my {v}, so lots going on.', 'Busy, my {v} {when}, so there was a party.'],
    question: ["What happened in {P}'s family?", 'What family news did {P} share?'],
    open: ["Was there a {g} in {P}'s family?"],
    when: ['When did {P} share that the {v}?'],
    distract: [
      'Family dinners always end in an argument about politics.',
      'I should call my parents more often, I feel bad.',
      'My family group chat is chaos right now.',
    ],
  },
  {
    kind: 'race',
    group: 'health',
    values: [
      { value: 'half marathon', general: 'running' },
      { value: 'charity 10k', general: 'running' },
      { value: 'triathlon', general: 'endurance' },
      { value: 'cycling sportive', general: 'cycling' },
      { value: 'open water swim', general: 'swimming' },
    ],
    tell: [
      'I finished the {v} {when}! My legs are destroyed.',
      'Did the {v} {when}, crossed the line in a personal best.',
      'Training paid off, I completed the {v} {when} without stopping.',
    ],
    ask: ['How did the big race go?', 'Did all that training pay off?'],
    reply: ['I finished it! The {v} was brutal but worth it.', 'Yes, the {v} went better than I hoped.'],
    question: ['What race did {P} complete?', 'Which event did {P} train for and finish?'],
    open: ['Has {P} done any {g} competitions?'],
    when: ['When did {P} do the {v}?'],
    distract: [
      'I tried running once and my knees hated it.',
      'The race traffic closed my street all morning.',
      'Training for anything takes so much discipline.',
    ],
  },
  {
    kind: 'book',
    group: 'hobbies',
    values: [
      { value: 'The Salt Road', general: 'novel' },
      { value: 'Quiet Rivers', general: 'memoir' },
      { value: 'A Map of Small Things', general: 'novel' },
      { value: 'The Glass Orchard', general: 'mystery' },
      { value: 'Forty Winters', general: 'memoir' },
      { value: 'Under the Lantern', general: 'mystery' },
    ],
    tell: [
      'I could not put down {v}, I finished it {when} in one sitting.',
      'You have to read {v}, I stayed up all night with it {when}.',
      'My book club picked {v} {when} and it made me cry.',
    ],
    ask: ['Read anything good lately?', 'What was the book club pick?'],
    reply: ['{v}! Honestly one of the best I have read.', 'We did {v}, I recommend it to everyone.'],
    question: ['What book did {P} recommend?', 'Which book was {P} reading?'],
    open: ['Has {P} read a {g} recently?'],
    when: ['When did {P} read {v}?'],
    distract: [
      'I never have time to read anymore, I just scroll my phone.',
      'The library near me closed, which is such a shame.',
      'Audiobooks are the only way I get through anything.',
    ],
  },
  {
    kind: 'purchase',
    group: 'home',
    values: [
      { value: 'a secondhand camper van', general: 'vehicle' },
      { value: 'a red electric bike', general: 'vehicle' },
      { value: 'a tiny flat by the river', general: 'home' },
      { value: 'a cottage in the countryside', general: 'home' },
      { value: 'a vintage sewing machine', general: 'tool' },
      { value: 'a huge telescope', general: 'gadget' },
    ],
    tell: [
      'I finally bought {v} {when}, my savings are gone but I do not care.',
      'We put down a deposit on {v} {when}.',
      'Treated myself to {v} {when}, best decision of the year.',
    ],
    ask: ['Did you go for it in the end, the big purchase?', 'What did you spend your savings on?'],
    reply: ['I did! {v}, picked it up {when}.', 'Yes, {v}, no regrets at all.'],
    question: ['What did {P} buy?', 'What big purchase did {P} make?'],
    open: ['Did {P} buy a {g}?'],
    when: ['When did {P} buy {v}?'],
    distract: [
      'Everything is so expensive, I cannot afford anything big.',
      'I keep adding things to my basket and never buying them.',
      'Saving money is impossible with rent this high.',
    ],
  },
];

/** Chit-chat: most turns of a real conversation, many short, many naming the other person. */
export const SMALL_TALK = [
  'Same here!',
  'Haha, I know right?',
  'That is amazing, {O}!',
  'Thanks {O}, you are the best.',
  'Wow, good for you!',
  'Talk soon, {O}!',
  'Totally agree.',
  'Oh no, that sounds rough.',
  'I am so happy for you, {O}.',
  'Hey {O}! Long time no talk, how have you been?',
  'Hi {O}, hope your week is going well.',
  'Pretty good, just busy with the usual stuff.',
  'That reminds me, I need to call you about the weekend plans.',
  'I hope everything works out for you, {O}, you deserve it.',
  'Let me know how it goes, I want all the details.',
  'It has been such a long week, I am exhausted.',
  'The weather has been awful here, rain every single day.',
  'I made soup for dinner and it was honestly not bad.',
  'We should get coffee soon when things calm down.',
  'Sorry I took so long to reply, my phone died.',
  'You always know how to cheer me up, {O}.',
  'Anyway, enough about me, what is new with you?',
  'I am doing okay, a bit tired but fine.',
  'Good luck, {O}, fingers crossed for you!',
  'Ha, that is so typical of you.',
  'Honestly I would have done the same thing.',
];

/** Relative times said in a turn, and how many days before the session each means. */
export const WHEN: { say: string; daysBefore: number }[] = [
  { say: 'yesterday', daysBefore: 1 },
  { say: 'last weekend', daysBefore: 5 },
  { say: 'last week', daysBefore: 7 },
  { say: 'this morning', daysBefore: 0 },
  { say: 'two days ago', daysBefore: 2 },
  { say: 'on Saturday', daysBefore: 3 },
  { say: 'last month', daysBefore: 30 },
];

export const PEOPLE = [
  'Tim',
  'Maria',
  'Joanna',
  'Nate',
  'Priya',
  'Samuel',
  'Grace',
  'Omar',
  'Lena',
  'Dev',
  'Hannah',
  'Kofi',
  'Rosa',
  'Felix',
  'Aiko',
  'Marcus',
  'Chloe',
  'Yusuf',
  'Ingrid',
  'Leo',
];
