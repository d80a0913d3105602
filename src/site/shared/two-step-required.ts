/**
 * A refusal for want of two-step sign-in (403 MFA_ENROLLMENT_REQUIRED): the admin panel under ADMIN_MFA=required, and
 * an organisation whose owner requires it. The pages that meet one lead to the dashboard's Two-step sign-in card.
 */
import { ApiRequestError } from "~http/http-client"

export const isTwoStepRequired = (failure: unknown): failure is ApiRequestError => failure instanceof ApiRequestError && failure.code === "MFA_ENROLLMENT_REQUIRED"
