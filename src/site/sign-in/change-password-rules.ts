import { PASSWORD_MIN_LENGTH } from "~core/password-policy/defaults"

export interface ChangePasswordForm {
  currentPassword: string
  newPassword: string
  confirmPassword: string
}

export type ChangePasswordField = keyof ChangePasswordForm

/** The change-password checks, in this order; the first problem is shown on its field. */
export function validateChangePassword(form: ChangePasswordForm): { field: ChangePasswordField; message: string } | null {
  if (!form.currentPassword) return { field: "currentPassword", message: "Current password is required" }
  if (!form.newPassword) return { field: "newPassword", message: "New password is required" }
  if ([...form.newPassword].length < PASSWORD_MIN_LENGTH) {
    return { field: "newPassword", message: `Password must be at least ${PASSWORD_MIN_LENGTH} characters long` }
  }
  if (!/\p{Lu}/u.test(form.newPassword) || !/\p{Ll}/u.test(form.newPassword) || !/\p{Nd}/u.test(form.newPassword)) {
    return { field: "newPassword", message: "Password must contain at least one uppercase letter, one lowercase letter, and one number" }
  }
  if (form.newPassword === form.currentPassword) return { field: "newPassword", message: "New password must be different from current password" }
  if (!form.confirmPassword) return { field: "confirmPassword", message: "Please confirm your new password" }
  if (form.confirmPassword !== form.newPassword) return { field: "confirmPassword", message: "Passwords do not match" }
  return null
}
