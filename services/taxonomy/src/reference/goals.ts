/**
 * The 17 UN Sustainable Development Goals (short names as the UN publishes them) and the six
 * environmental objectives of Regulation (EU) 2020/852 (Taxonomy Regulation) Art. 9, in English, with
 * Swedish names (the Swedish government's names of the global goals; the Swedish text of Art. 9).
 * Seeded by a migration: change only together with a new migration.
 */
export interface ReferenceGoal {
  no: number;
  name: string;
  translations: Readonly<Record<string, string>>;
}

export const SDGS: readonly ReferenceGoal[] = [
  { no: 1, name: 'No Poverty', translations: { sv: 'Ingen fattigdom' } },
  { no: 2, name: 'Zero Hunger', translations: { sv: 'Ingen hunger' } },
  { no: 3, name: 'Good Health and Well-being', translations: { sv: 'Hälsa och välbefinnande' } },
  { no: 4, name: 'Quality Education', translations: { sv: 'God utbildning för alla' } },
  { no: 5, name: 'Gender Equality', translations: { sv: 'Jämställdhet' } },
  { no: 6, name: 'Clean Water and Sanitation', translations: { sv: 'Rent vatten och sanitet för alla' } },
  { no: 7, name: 'Affordable and Clean Energy', translations: { sv: 'Hållbar energi för alla' } },
  { no: 8, name: 'Decent Work and Economic Growth', translations: { sv: 'Anständiga arbetsvillkor och ekonomisk tillväxt' } },
  { no: 9, name: 'Industry, Innovation and Infrastructure', translations: { sv: 'Hållbar industri, innovationer och infrastruktur' } },
  { no: 10, name: 'Reduced Inequalities', translations: { sv: 'Minskad ojämlikhet' } },
  { no: 11, name: 'Sustainable Cities and Communities', translations: { sv: 'Hållbara städer och samhällen' } },
  { no: 12, name: 'Responsible Consumption and Production', translations: { sv: 'Hållbar konsumtion och produktion' } },
  { no: 13, name: 'Climate Action', translations: { sv: 'Bekämpa klimatförändringarna' } },
  { no: 14, name: 'Life Below Water', translations: { sv: 'Hav och marina resurser' } },
  { no: 15, name: 'Life on Land', translations: { sv: 'Ekosystem och biologisk mångfald' } },
  { no: 16, name: 'Peace, Justice and Strong Institutions', translations: { sv: 'Fredliga och inkluderande samhällen' } },
  { no: 17, name: 'Partnerships for the Goals', translations: { sv: 'Genomförande och globalt partnerskap' } },
];

export const EU_OBJECTIVES: readonly ReferenceGoal[] = [
  { no: 1, name: 'Climate change mitigation', translations: { sv: 'Begränsning av klimatförändringar' } },
  { no: 2, name: 'Climate change adaptation', translations: { sv: 'Anpassning till klimatförändringar' } },
  {
    no: 3,
    name: 'Sustainable use and protection of water and marine resources',
    translations: { sv: 'Hållbar användning och skydd av vatten och marina resurser' },
  },
  { no: 4, name: 'Transition to a circular economy', translations: { sv: 'Omställning till en cirkulär ekonomi' } },
  { no: 5, name: 'Pollution prevention and control', translations: { sv: 'Förebyggande och kontroll av föroreningar' } },
  {
    no: 6,
    name: 'Protection and restoration of biodiversity and ecosystems',
    translations: { sv: 'Skydd och återställande av biologisk mångfald och ekosystem' },
  },
];
