// The custom_ids of an application form's apply button and of the dialog it opens, written and read here only.

const APPLY = /^application:apply:(\d{1,10})$/;
const FORM = /^application:form:(\d{1,10})$/;

/** Discord's dialogs hold at most five text inputs: a form with more questions cannot be filled in one. */
export const MAX_DIALOG_QUESTIONS = 5;

export const applicationApplyButtonId = (formId: number) => `application:apply:${formId}`;
export const applicationFormDialogId = (formId: number) => `application:form:${formId}`;

const formIdIn = (pattern: RegExp, customId: string) => {
  const m = pattern.exec(customId);
  const id = m ? Number(m[1]) : undefined;
  return id !== undefined && id >= 1 && id <= 2_147_483_647 ? id : undefined;
};

export const parseApplicationApplyButton = (customId: string) => formIdIn(APPLY, customId);
export const parseApplicationFormDialog = (customId: string) => formIdIn(FORM, customId);
