/** The app's texts come from the translator both sides share (decision 0037). */
export { createI18n, type I18n, type Messages, type PageTexts, type Translate, type TranslateOptions, type VariantMessages } from "../shared/translator";
