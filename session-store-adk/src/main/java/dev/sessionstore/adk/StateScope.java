package dev.sessionstore.adk;

import com.google.adk.sessions.State;

/** Where a state key lives, by ADK's prefixes. */
enum StateScope {
  /** {@code app:} keys, shared by every user and session of an app. */
  APP,
  /** {@code user:} keys, shared by every session of one user of an app. */
  USER,
  /** {@code temp:} keys, never persisted. */
  TEMP,
  /** Unprefixed keys, the session's own. */
  SESSION;

  /** The scope of {@code key}. */
  static StateScope of(String key) {
    if (key.startsWith(State.APP_PREFIX)) {
      return APP;
    }
    if (key.startsWith(State.USER_PREFIX)) {
      return USER;
    }
    if (key.startsWith(State.TEMP_PREFIX)) {
      return TEMP;
    }
    return SESSION;
  }
}
