package dev.sessionstore.spi;

import dev.sessionstore.Json;

/**
 * Which sessions are resumed eagerly ({@link dev.sessionstore.Sessions#listResumable()}), identical in every
 * adapter: those whose settings are a JSON object with the top-level string member {@value #SETTING} equal to
 * {@value #EAGER}, whatever their status. Any other value, a non-string value or a nested member does not count.
 * An adapter that filters in its backend compares the same member with the same value, as parameters.
 */
public final class ResumeRule {

  /** The settings member that names a session's resume policy. */
  public static final String SETTING = "resume_policy";

  /** The value of {@link #SETTING} that asks for eager resumption. */
  public static final String EAGER = "eager";

  private ResumeRule() {
  }

  /** Whether a session with these settings is resumed eagerly. */
  public static boolean resumesEagerly(Json settings) {
    return settings.stringMember(SETTING).filter(EAGER::equals).isPresent();
  }
}
