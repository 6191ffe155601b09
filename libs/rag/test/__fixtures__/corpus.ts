/**
 * A labelled retrieval set: 12 short company-handbook documents (overlapping vocabulary on
 * purpose: days, weeks, approval, euros, hours…) and 61 questions, each with the passage that
 * answers it: 40 that paraphrase their passage, 21 harder ones that share few of its words.
 */
export interface CorpusDocument {
  name: string;
  paragraphs: string[];
}

export interface LabelledQuestion {
  question: string;
  document: string;
  /** A phrase of the answering passage, as it appears in the document (whitespace may differ). */
  passage: string;
}

export const CORPUS: CorpusDocument[] = [
  {
    name: 'vacation-policy',
    paragraphs: [
      'Vacation policy. Every full-time employee receives 25 days of paid annual leave per calendar year. Part-time employees receive a share of this allowance in proportion to their contracted hours. The leave year runs from January to December.',
      'Leave requests are submitted in the HR portal at least two weeks before the first day of absence. Your manager approves or declines the request within three working days. Requests for more than ten consecutive days should be discussed with the team first.',
      'You may carry over up to five unused days into the next year. Carried-over days expire on March 31 and are lost if they are not taken by then. Days beyond that limit cannot be paid out except when you leave the company.',
      'Public holidays are not deducted from your allowance. If a public holiday falls during your vacation, the day is credited back automatically.',
      'Unpaid leave of up to three months can be granted for personal projects, studies or family reasons. It needs the approval of both your manager and HR, and benefits such as pension contributions are paused during that time.',
    ],
  },
  {
    name: 'expense-reimbursement',
    paragraphs: [
      'Expense reimbursement. Business expenses are reimbursed when they are necessary for your work and supported by a receipt. Submit each claim in the finance tool within 30 days of the purchase; older claims are rejected.',
      'Meals during business trips are covered up to 60 euros per day, including tips. Alcohol is never reimbursed. When a customer pays for a meal, no meal allowance is claimed for that day.',
      'Using a private car for business travel is compensated at 0.30 euros per kilometre. Parking fees and tolls are reimbursed separately with receipts. Fines for speeding or parking violations are always your own responsibility.',
      'Any single expense above 500 euros needs written approval from your manager before the purchase. Software subscriptions must be requested through IT instead of being expensed.',
      'Approved claims are paid out together with the next monthly payroll. Finance may ask for additional documents, and the claim is paused until they arrive.',
    ],
  },
  {
    name: 'security-incident-response',
    paragraphs: [
      'Security incident response. Anyone who notices a possible security incident must report it to security@northwind.example within one hour. Do not try to investigate on your own and do not delete evidence such as emails or log files.',
      'Phishing emails are a common entry point for attackers. Never click links or open attachments in a suspicious message. Forward it as an attachment to the security team and then delete it from your inbox.',
      'If your laptop or phone is lost or stolen, call the IT helpdesk immediately, at any time of day. The device will be locked and erased remotely, and your passwords will be reset.',
      'Incidents are classified into four severity levels. Severity one means customer data may be exposed; it triggers the incident commander rota and a notification to the data protection officer.',
      'After every incident of severity one or two, a blameless post-mortem is written within five business days. It lists the timeline, the root cause and the follow-up actions with owners.',
    ],
  },
  {
    name: 'onboarding-guide',
    paragraphs: [
      'Onboarding guide. On your first day, come to the reception at 9:00. You will receive your badge, a welcome pack and a short tour of the office.',
      'Each newcomer is paired with a buddy from a neighbouring team. Your buddy answers practical questions, introduces you to colleagues and has lunch with you during the first week.',
      'Your laptop is prepared by IT before you arrive, with your accounts already created. You set your own password at the first login and enrol your phone for two-factor authentication.',
      'Two trainings are mandatory in the first two weeks: security awareness and data protection. Both are online courses of about one hour and end with a short quiz.',
      'At the end of the probation period, after 90 days, you and your manager hold a review meeting to discuss your goals, your feedback on the onboarding and the next steps.',
    ],
  },
  {
    name: 'coffee-machine-care',
    paragraphs: [
      'Coffee machine care. The espresso machine in the kitchen is maintained by volunteers from each floor. Please treat it gently and follow these instructions.',
      'Descale the machine once a month with the descaling liquid stored under the sink. The program takes about forty minutes, so run it in the evening.',
      'Fill the water tank only with filtered water from the jug in the fridge. Tap water leaves limescale in the boiler and shortens the life of the machine.',
      'If the display shows error E5, the grinder is jammed. Switch the machine off, empty the bean hopper and remove any stones or foreign objects before switching it on again.',
      'Put only whole coffee beans into the hopper, never ground coffee or flavoured beans. Insert a cleaning tablet every Friday afternoon and rinse the milk frother after each use.',
    ],
  },
  {
    name: 'office-plants',
    paragraphs: [
      'Office plants. The plants on each floor are looked after by a rota of volunteers. The schedule hangs next to the kitchen door; swap shifts with a colleague if you are away.',
      'The large ficus trees need watering once a week, on Monday mornings. Let the top of the soil dry out between waterings, because standing water rots their roots.',
      'Orchids on the windowsills should not be watered from above. Mist their leaves twice a week and soak the pots in a bowl of water for ten minutes every second week.',
      'From March to September, add liquid fertilizer to the watering can every two weeks. In autumn and winter the plants rest and need no fertilizer at all.',
      'Most of our plants prefer bright, indirect light. Keep the cacti in the south-facing meeting room and move ferns away from radiators during the heating season.',
    ],
  },
  {
    name: 'release-process',
    paragraphs: [
      'Release process. Production releases follow a release train that leaves every second Tuesday. Whatever is merged and tested by then ships; anything else waits for the next train.',
      'A code freeze starts on the Friday before each release. After the freeze only fixes for release blockers are merged, and each of them needs a review from the release captain.',
      'Every change that users can notice gets an entry in the changelog. Version numbers follow semantic versioning: breaking changes raise the major version, new features the minor one.',
      'Risky features are shipped behind feature flags and enabled gradually, first for internal users, then for ten percent of customers, then for everyone.',
      'If a release causes errors, roll back within fifteen minutes by redeploying the previous version from the deployment dashboard, then investigate. Do not try to fix forward under pressure.',
    ],
  },
  {
    name: 'on-call-rotation',
    paragraphs: [
      'On-call rotation. Engineers take turns being on call for production systems. A rotation lasts one week and starts on Monday at 10:00 with a handover meeting.',
      'When the pager fires, acknowledge the alert within five minutes. If the primary engineer does not acknowledge within fifteen minutes, the alert escalates automatically to the secondary.',
      'Being on call is compensated with 200 euros per week. Each night with an incident that woke you up earns an extra half day off, to be taken within the following month.',
      'At the end of the week, write handover notes listing open incidents, noisy alerts and anything the next person should watch.',
      'Nobody is on call more than one week in four. New team members shadow two rotations before they join the schedule themselves.',
    ],
  },
  {
    name: 'database-backups',
    paragraphs: [
      'Database backups. All production databases are backed up automatically. A full backup runs every night at 02:00 UTC and is verified by checksum when it finishes.',
      'Between full backups, the write-ahead log is archived every five minutes, which allows point-in-time recovery with at most five minutes of lost data.',
      'Backups are kept for 35 days. Monthly snapshots are kept for one year for legal reasons and then deleted automatically.',
      'Every backup is encrypted with AES-256 before it leaves the database server, and a copy is stored in a second cloud region in case the primary region becomes unavailable.',
      'Once per quarter the platform team runs a restore drill: a randomly chosen database is restored into an isolated environment and the time to recovery is recorded.',
    ],
  },
  {
    name: 'travel-booking',
    paragraphs: [
      'Travel booking. All business trips are booked through the travel portal so that the company knows where travellers are in an emergency. Bookings made elsewhere are not reimbursed.',
      'Flights shorter than six hours are booked in economy class. For longer flights, business class is allowed when the traveller has to work on arrival.',
      'Hotel rooms are covered up to 180 euros per night in most cities. For expensive cities such as London, Zurich or New York the portal applies a higher limit automatically.',
      'Trains are preferred over planes for journeys of less than four hours. First-class rail tickets are allowed on trips longer than two hours.',
      'Travel insurance is provided by the company for every booked trip; you do not need to buy your own.',
    ],
  },
  {
    name: 'remote-work',
    paragraphs: [
      'Remote work. Employees may work from home up to three days per week, agreed with their team. Teams choose at least one common office day to meet in person.',
      'Core hours are from 10:00 to 15:00 in your local time zone. During core hours you are expected to be reachable by chat and to join scheduled meetings.',
      'To set up a home office, every employee receives a one-time equipment allowance of 500 euros for a chair, a desk or a monitor. Receipts are submitted as a normal expense claim.',
      'Working from another country is allowed for up to 30 days per year. It requires approval from HR in advance because of tax and insurance rules.',
      'Company laptops must not be used on public networks without the VPN, and confidential documents must not be printed at home.',
    ],
  },
  {
    name: 'parental-leave',
    paragraphs: [
      'Parental leave. The birth parent receives sixteen weeks of fully paid leave. The other parent, including adoptive parents, receives eight weeks of fully paid leave.',
      'Parental leave can be taken in one block or split into up to three periods, as long as all of it is taken within the first year after the birth or adoption.',
      'Please notify HR at least three months before the planned start of your leave, so that your team can plan a replacement or redistribute work.',
      'After the leave, a phased return is possible: you may work part-time, between twenty and thirty hours per week, for up to three months while keeping your full-time contract.',
      'Your position, salary reviews and benefits are protected during parental leave, and the time counts towards your seniority.',
    ],
  },
];

export const QUESTIONS: LabelledQuestion[] = [
  {
    question: 'How many days of paid vacation does a full-time employee get per year?',
    document: 'vacation-policy',
    passage: 'receives 25 days of paid annual leave',
  },
  {
    question: 'Can I move unused vacation days to next year, and until when?',
    document: 'vacation-policy',
    passage: 'You may carry over up to five unused days',
  },
  {
    question: 'How long can unpaid leave last and who approves it?',
    document: 'vacation-policy',
    passage: 'Unpaid leave of up to three months',
  },
  {
    question: 'How late can I submit a receipt for an expense claim?',
    document: 'expense-reimbursement',
    passage: 'within 30 days of the purchase',
  },
  {
    question: 'What is the daily limit for meals on a business trip?',
    document: 'expense-reimbursement',
    passage: 'covered up to 60 euros per day',
  },
  {
    question: 'What rate is paid per kilometre when I drive my own car?',
    document: 'expense-reimbursement',
    passage: '0.30 euros per kilometre',
  },
  {
    question: 'Which purchases need my manager to approve them first?',
    document: 'expense-reimbursement',
    passage: 'Any single expense above 500 euros needs written approval',
  },
  {
    question: 'Who do I tell about a security incident and how quickly?',
    document: 'security-incident-response',
    passage: 'report it to security@northwind.example within one hour',
  },
  {
    question: 'What should I do with a suspicious phishing email?',
    document: 'security-incident-response',
    passage: 'Forward it as an attachment to the security team',
  },
  {
    question: 'My laptop was stolen, what now?',
    document: 'security-incident-response',
    passage: 'call the IT helpdesk immediately',
  },
  {
    question: 'When is the post-mortem written after a serious incident?',
    document: 'security-incident-response',
    passage: 'blameless post-mortem is written within five business days',
  },
  {
    question: 'Where and when do I go on my first day?',
    document: 'onboarding-guide',
    passage: 'come to the reception at 9:00',
  },
  {
    question: 'What does my onboarding buddy do?',
    document: 'onboarding-guide',
    passage: 'Your buddy answers practical questions',
  },
  {
    question: 'Which trainings are mandatory for newcomers?',
    document: 'onboarding-guide',
    passage: 'security awareness and data protection',
  },
  {
    question: 'When is the review at the end of the probation period?',
    document: 'onboarding-guide',
    passage: 'after 90 days',
  },
  {
    question: 'How often must the espresso machine be descaled?',
    document: 'coffee-machine-care',
    passage: 'Descale the machine once a month',
  },
  {
    question: 'What does error E5 on the coffee machine mean?',
    document: 'coffee-machine-care',
    passage: 'the grinder is jammed',
  },
  {
    question: 'Can I use tap water in the coffee machine tank?',
    document: 'coffee-machine-care',
    passage: 'Fill the water tank only with filtered water',
  },
  {
    question: 'How often do the ficus trees need water?',
    document: 'office-plants',
    passage: 'ficus trees need watering once a week',
  },
  {
    question: 'How should orchids be watered?',
    document: 'office-plants',
    passage: 'Mist their leaves twice a week',
  },
  {
    question: 'When do the plants get fertilizer?',
    document: 'office-plants',
    passage: 'From March to September, add liquid fertilizer',
  },
  {
    question: 'How often does the release train leave?',
    document: 'release-process',
    passage: 'release train that leaves every second Tuesday',
  },
  {
    question: 'When does the code freeze start before a release?',
    document: 'release-process',
    passage: 'A code freeze starts on the Friday before each release',
  },
  {
    question: 'How fast should a bad release be rolled back?',
    document: 'release-process',
    passage: 'roll back within fifteen minutes',
  },
  {
    question: 'How are risky features rolled out to customers?',
    document: 'release-process',
    passage: 'shipped behind feature flags and enabled gradually',
  },
  {
    question: 'When does the on-call week start?',
    document: 'on-call-rotation',
    passage: 'starts on Monday at 10:00',
  },
  {
    question: 'What happens if the primary engineer does not acknowledge the pager alert?',
    document: 'on-call-rotation',
    passage: 'escalates automatically to the secondary',
  },
  {
    question: 'How much extra pay do engineers get for an on-call week?',
    document: 'on-call-rotation',
    passage: 'compensated with 200 euros per week',
  },
  {
    question: 'At what time does the nightly full database backup run?',
    document: 'database-backups',
    passage: 'every night at 02:00 UTC',
  },
  {
    question: 'How long are database backups retained?',
    document: 'database-backups',
    passage: 'Backups are kept for 35 days',
  },
  {
    question: 'How are backups encrypted and where are copies stored?',
    document: 'database-backups',
    passage: 'encrypted with AES-256',
  },
  {
    question: 'How often is restoring a database practised?',
    document: 'database-backups',
    passage: 'Once per quarter the platform team runs a restore drill',
  },
  {
    question: 'Which class can I fly on a long flight?',
    document: 'travel-booking',
    passage: 'business class is allowed',
  },
  {
    question: 'What is the maximum hotel price per night?',
    document: 'travel-booking',
    passage: 'up to 180 euros per night',
  },
  {
    question: 'How many days a week can I work from home?',
    document: 'remote-work',
    passage: 'work from home up to three days per week',
  },
  {
    question: 'What are the core hours when working remotely?',
    document: 'remote-work',
    passage: 'Core hours are from 10:00 to 15:00',
  },
  {
    question: 'Is there a budget for a desk or chair for my home office?',
    document: 'remote-work',
    passage: 'one-time equipment allowance of 500 euros',
  },
  {
    question: 'How many weeks of paid leave does the birth parent get?',
    document: 'parental-leave',
    passage: 'sixteen weeks of fully paid leave',
  },
  {
    question: 'Can parental leave be split into several periods?',
    document: 'parental-leave',
    passage: 'split into up to three periods',
  },
  {
    question: 'Can I come back part-time after parental leave?',
    document: 'parental-leave',
    passage: 'a phased return is possible',
  },
  // Harder paraphrases: few of the passage's own words.
  {
    question: 'How much holiday time do full-timers get?',
    document: 'vacation-policy',
    passage: 'receives 25 days of paid annual leave',
  },
  {
    question: 'Is there a deadline for handing in receipts?',
    document: 'expense-reimbursement',
    passage: 'within 30 days of the purchase',
  },
  {
    question: 'What do I get back for driving to a client in my own vehicle?',
    document: 'expense-reimbursement',
    passage: '0.30 euros per kilometre',
  },
  {
    question: 'Who must sign off on big purchases?',
    document: 'expense-reimbursement',
    passage: 'Any single expense above 500 euros needs written approval',
  },
  {
    question: 'What happens to my phone if it goes missing?',
    document: 'security-incident-response',
    passage: 'locked and erased remotely',
  },
  {
    question: 'How soon after a major outage is the incident analysis due?',
    document: 'security-incident-response',
    passage: 'blameless post-mortem is written within five business days',
  },
  {
    question: 'How do I get my login credentials when I start?',
    document: 'onboarding-guide',
    passage: 'You set your own password at the first login',
  },
  {
    question: 'How do I unblock the grinder?',
    document: 'coffee-machine-care',
    passage: 'remove any stones or foreign objects',
  },
  {
    question: 'What must never go into the bean container?',
    document: 'coffee-machine-care',
    passage: 'never ground coffee or flavoured beans',
  },
  {
    question: 'Where should the cacti be kept?',
    document: 'office-plants',
    passage: 'Keep the cacti in the south-facing meeting room',
  },
  {
    question: 'What if my change is not merged before the departure date?',
    document: 'release-process',
    passage: 'anything else waits for the next train',
  },
  {
    question: 'How are version numbers chosen?',
    document: 'release-process',
    passage: 'Version numbers follow semantic versioning',
  },
  {
    question: 'Is there compensation for being woken up at night?',
    document: 'on-call-rotation',
    passage: 'earns an extra half day off',
  },
  {
    question: 'How often is one person on duty at most?',
    document: 'on-call-rotation',
    passage: 'Nobody is on call more than one week in four',
  },
  {
    question: 'At worst, how much data is lost when recovering a database?',
    document: 'database-backups',
    passage: 'at most five minutes of lost data',
  },
  {
    question: 'Do I need to buy my own travel insurance?',
    document: 'travel-booking',
    passage: 'Travel insurance is provided by the company',
  },
  {
    question: 'Should I take the train or fly for short journeys?',
    document: 'travel-booking',
    passage: 'Trains are preferred over planes',
  },
  {
    question: 'May I work from abroad for a while?',
    document: 'remote-work',
    passage: 'Working from another country is allowed for up to 30 days per year',
  },
  {
    question: 'Can I print confidential papers at home?',
    document: 'remote-work',
    passage: 'confidential documents must not be printed at home',
  },
  {
    question: 'How much leave does the second parent receive?',
    document: 'parental-leave',
    passage: 'receives eight weeks of fully paid leave',
  },
  {
    question: 'How early should HR hear about my planned parental leave?',
    document: 'parental-leave',
    passage: 'notify HR at least three months before',
  },
];
