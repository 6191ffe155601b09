/** What `/analyze` can do, and the instruction the model gets for each. */
export const ANALYSES = {
  sentiment:
    'Classify the sentiment of the text as positive, negative, neutral or mixed, then give a one-sentence reason.',
  summary: 'Summarize the text in two or three sentences.',
  keywords: 'List the 5 to 10 most important keywords of the text, comma-separated.',
  entities:
    'List the named entities in the text (people, organisations, places, dates), one per line as "type: name".',
} as const;

export type AnalysisType = keyof typeof ANALYSES;

export const ANALYSIS_TYPES = Object.keys(ANALYSES) as AnalysisType[];
