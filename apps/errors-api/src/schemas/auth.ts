import { commonErrors, errorResponse, okResponse, sessionSecurity } from './common.ts';

export const userSchema = {
  type: 'object',
  properties: {
    id: { type: 'string' },
    email: { type: 'string' },
    name: { type: 'string' },
    role: { type: 'string' },
  },
  required: ['id', 'email', 'name', 'role'],
} as const;

const email = { type: 'string', format: 'email', maxLength: 254 } as const;
const newPassword = { type: 'string', minLength: 8, maxLength: 1024 } as const;

export const setupStatusSchema = {
  tags: ['setup'],
  summary: 'Whether first-run setup is still needed',
  response: {
    200: { type: 'object', properties: { needs_setup: { type: 'boolean' } }, required: ['needs_setup'] },
  },
} as const;

export const setupSchema = {
  tags: ['setup'],
  summary: 'Create the first (admin) user and a default project; only while no users exist',
  body: {
    type: 'object',
    properties: { email, name: { type: 'string', minLength: 1, maxLength: 100 }, password: newPassword },
    required: ['email', 'name', 'password'],
    additionalProperties: false,
  },
  response: {
    201: {
      type: 'object',
      properties: { user: userSchema, project_slug: { type: 'string' }, dsn: { type: 'string' } },
      required: ['user', 'project_slug', 'dsn'],
    },
    400: errorResponse,
    409: errorResponse,
  },
} as const;

export const loginSchema = {
  tags: ['auth'],
  summary: 'Sign in; sets the trove_session cookie',
  body: {
    type: 'object',
    properties: { email: { type: 'string', maxLength: 254 }, password: { type: 'string', maxLength: 1024 } },
    required: ['email', 'password'],
    additionalProperties: false,
  },
  response: {
    200: { type: 'object', properties: { user: userSchema }, required: ['user'] },
    400: errorResponse,
    401: errorResponse,
    429: errorResponse,
  },
} as const;

export const logoutSchema = {
  tags: ['auth'],
  summary: 'Sign out; clears the session cookie',
  response: { 200: okResponse },
} as const;

export const meSchema = {
  tags: ['auth'],
  summary: 'The signed-in user',
  security: sessionSecurity,
  response: { 200: { type: 'object', properties: { user: userSchema }, required: ['user'] }, 401: errorResponse },
} as const;

export const changePasswordSchema = {
  tags: ['auth'],
  summary: "Change the signed-in user's password; signs out their other sessions",
  security: sessionSecurity,
  body: {
    type: 'object',
    properties: { current_password: { type: 'string', maxLength: 1024 }, new_password: newPassword },
    required: ['current_password', 'new_password'],
    additionalProperties: false,
  },
  response: { 200: okResponse, ...commonErrors, 403: errorResponse },
} as const;
