/** `/alerts/{id}` and its actions. */
import type { RegisterPages } from "../kit.ts";

export const registerAlertPages: RegisterPages = () => {};
