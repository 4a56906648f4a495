package dev.sessionstore.spi;

import dev.sessionstore.Json;
import dev.sessionstore.Session;
import dev.sessionstore.internal.ApiAccess;

/**
 * Which sessions are resumed eagerly ({@link dev.sessionstore.Sessions#listResumable()}), identical in every
 * adapter: those whose settings are a JSON object with the top-level string member {@value #SETTING} equal to
 * {@value #EAGER}, whatever their status. Any other value, a non-string value or a nested member does not count.
 * An adapter that filters in its backend compares the same member with the same value, as parameters. The rule
 * is {@link Session#resumesEagerly()}'s, called here, not copied.
 */
public final class ResumeRule {

  /** The settings member that names a session's resume policy. */
  public static final String SETTING = Session.RESUME_POLICY;

  /** The value of {@link #SETTING} that asks for eager resumption. */
  public static final String EAGER = Session.EAGER;

  private static final ApiAccess API = ApiAccess.get();

  private ResumeRule() {
  }

  /** Whether a session with these settings is resumed eagerly. */
  public static boolean resumesEagerly(Json settings) {
    return API.resumesEagerly(settings);
  }
}
