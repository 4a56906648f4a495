package dev.sessionstore.adk;

import dev.sessionstore.Limits;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The store session ids of ADK's scopes: one ADK session, the {@code app:} state of an app, the {@code user:} state
 * of an app's user, and the memory copy of a session another session service keeps. Each is a prefix naming the
 * kind, then the parts, each but the last written as its length in chars, a colon and the part itself:
 * {@code adk:s:3:app4:user:session-1}. The lengths make the encoding injective, so no two different (app, user,
 * session) triples share an id ({@code "a:b" + "c"} and {@code "a" + "b:c"} differ in their lengths), and the kind
 * prefixes keep the kinds apart. An encoding longer than a store key ({@link Limits#MAX_KEY_LENGTH} chars) is
 * replaced by {@code adk#} and the unpadded base64url of its SHA-256, which no readable id can equal (readable ids
 * start {@code adk:}).
 */
final class ScopeIds {

  /** Never digested into: only cloned ({@link #newSha256}), so sharing it between threads is safe. */
  private static final MessageDigest SHA_256 = sha256Prototype();

  private ScopeIds() {
  }

  /** The store session holding the ADK session {@code sessionId} of {@code userId} in {@code appName}. */
  static String session(String appName, String userId, String sessionId) {
    return fit("adk:s:" + part(appName) + part(userId) + sessionId);
  }

  /** The store session whose log holds the {@code app:} state deltas of {@code appName}. */
  static String appState(String appName) {
    return fit("adk:a:" + appName);
  }

  /** The store session whose log holds the {@code user:} state deltas of {@code userId} in {@code appName}. */
  static String userState(String appName, String userId) {
    return fit("adk:u:" + part(appName) + userId);
  }

  /**
   * The store session holding the memory copy of the ADK session {@code sessionId} of {@code userId} in
   * {@code appName}, for a session this module's session service does not store.
   */
  static String memory(String appName, String userId, String sessionId) {
    return fit("adk:m:" + part(appName) + part(userId) + sessionId);
  }

  /** An event id derived from {@code content}: the same for the same content, for an ADK event that has no id. */
  static String content(String content) {
    return "c-" + sha256(content);
  }

  /**
   * The id of the delta an ADK event {@code eventId} of the store session {@code sessionKey} writes to a shared
   * state log: the same for every retry of that append, different for any other (session, event) pair.
   */
  static String delta(String sessionKey, String eventId) {
    return "d-" + sha256(part(sessionKey) + eventId);
  }

  private static String part(String value) {
    return value.length() + ":" + value;
  }

  private static String fit(String encoded) {
    return encoded.length() <= Limits.MAX_KEY_LENGTH ? encoded : "adk#" + sha256(encoded);
  }

  private static String sha256(String text) {
    byte[] digest = newSha256().digest(text.getBytes(StandardCharsets.UTF_8));
    return Base64.getUrlEncoder().withoutPadding().encodeToString(digest);
  }

  /**
   * A fresh SHA-256 digest, cloned from {@link #SHA_256} (cloning skips the provider lookup of
   * {@link MessageDigest#getInstance}, which costs more than hashing an id; the JDK's SHA-256 is cloneable).
   */
  private static MessageDigest newSha256() {
    try {
      return (MessageDigest) SHA_256.clone();
    } catch (CloneNotSupportedException e) {
      throw new IllegalStateException("the platform's SHA-256 digest cannot be cloned", e);
    }
  }

  private static MessageDigest sha256Prototype() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform has SHA-256", e);
    }
  }
}
