import type {
  OtpPurpose,
  OtpSendResponse,
  PasswordResetRequest,
  Profile,
  RegisteredUser,
  RegisterRequest,
  TokenPair,
} from '@quiz/contracts'
import { api } from '../../api/client'
import i18n, { setLanguage, type Language } from '../../i18n/i18n'
import { sessionStore } from '../../session/session-store'

/** Every auth call is made before a session exists: none sends a bearer token. */
export const visitor = { auth: false } as const

export const authApi = {
  login: (username: string, password: string) => api.post<TokenPair>('/token/', { username, password }, visitor),
  // The SMS comes in the language on screen (API.md allows `language`; without it the account's).
  sendOtp: (phone: string, purpose: OtpPurpose) =>
    api.post<OtpSendResponse>(
      '/users/otp/send/',
      { phone_number: phone, purpose, language: i18n.language === 'ne' ? 'ne' : 'en' },
      visitor,
    ),
  verifyLoginOtp: (phone: string, otp: string) =>
    api.post<TokenPair>('/users/otp/verify/', { phone_number: phone, otp, purpose: 'login' }, visitor),
  verifyRegisterOtp: (phone: string, otp: string) =>
    api.post<{ verified: true }>('/users/otp/verify/', { phone_number: phone, otp, purpose: 'register' }, visitor),
  /** A learner's membership where the account has none, with the credentials just refused (API.md "Institutes"). */
  join: (credentials: { username: string; password: string } | { phone_number: string; otp: string }) =>
    api.post<TokenPair>('/institute/join/', credentials, visitor),
  register: (body: RegisterRequest) => api.post<RegisteredUser>('/users/register/', body, visitor),
  resetPassword: (body: PasswordResetRequest) => api.post<{ detail: string }>('/users/password-reset/', body, visitor),
}

/**
 * Starts the session from a token pair. The profile is read first, with the new token, so the dashboard
 * opens in the learner's preferred language instead of flashing the old one (WEB.md: login applies it).
 * `adoptLanguage` is for the first login after registration: the account's language is then only the
 * server's default, and the language the learner registered in is saved as the preference instead.
 * A profile that fails to load or save only keeps the current language.
 */
export async function startSession(tokens: TokenPair, { adoptLanguage }: { adoptLanguage?: Language } = {}) {
  try {
    let profile = await api.get<Profile>('/users/profile/', { token: tokens.access })
    if (adoptLanguage && profile.preferred_language !== adoptLanguage) {
      const form = new FormData()
      form.set('preferred_language', adoptLanguage)
      profile = await api.put<Profile>('/users/profile/', undefined, { token: tokens.access, formData: form })
    }
    setLanguage(profile.preferred_language)
  } catch {
    // The login itself succeeded; the language stays as it is.
  }
  sessionStore.setTokens(tokens)
}
