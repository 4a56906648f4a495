package dev.sessionstore.spi;

import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.SearchQuery;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.DateTimeException;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The position after a hit in {@link dev.sessionstore.SearchPage}'s order, bound to the query it came from: its
 * score, timestamp, session id and seq, with a digest of the query's terms, scope and filters (not its limit), so that
 * a cursor passed to another query is refused rather than read as a position in it. Opaque to callers: URL-safe
 * Base64 of a versioned text.
 */
record SearchCursor(String queryDigest, int score, Instant timestamp, String sessionId, long seq) {

  private static final String VERSION = "1";

  /** The cursor after {@code hit} in {@code query}'s results. */
  static String after(SearchQuery query, int score, Instant timestamp, String sessionId, long seq) {
    String text = String.join("\n", VERSION, digest(query), Integer.toString(score),
        Long.toString(timestamp.getEpochSecond()), Integer.toString(timestamp.getNano()), Long.toString(seq),
        sessionId);
    return Base64.getUrlEncoder().withoutPadding().encodeToString(text.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * The position {@code query}'s cursor names.
   *
   * @throws InvalidArgumentException naming {@code cursor} if it is not one this code made for a query with the same
   *                                  terms, scope and filters
   */
  static SearchCursor of(SearchQuery query) {
    try {
      String text = new String(Base64.getUrlDecoder().decode(query.cursor()), StandardCharsets.UTF_8);
      String[] parts = text.split("\n", 7);
      if (parts.length != 7 || !parts[0].equals(VERSION)) {
        throw foreign();
      }
      if (!parts[1].equals(digest(query))) {
        throw new InvalidArgumentException("cursor", "belongs to a search with other terms, scope or filters");
      }
      return new SearchCursor(parts[1], Integer.parseInt(parts[2]),
          Instant.ofEpochSecond(Long.parseLong(parts[3]), Integer.parseInt(parts[4])), parts[6],
          Long.parseLong(parts[5]));
    } catch (IllegalArgumentException | DateTimeException malformed) {
      throw foreign();
    }
  }

  private static InvalidArgumentException foreign() {
    return new InvalidArgumentException("cursor", "is not a cursor a search handed out");
  }

  private static String digest(SearchQuery query) {
    String scope = String.join("\n", query.text(), String.valueOf(query.sessionId()), String.valueOf(query.tenant()),
        new TreeMap<>(query.sessionMetadata()).toString(), new TreeSet<>(query.types()).toString(),
        String.valueOf(query.runId()), String.valueOf(query.agentId()), String.valueOf(query.since()),
        String.valueOf(query.until()));
    try {
      byte[] hash = MessageDigest.getInstance("SHA-256").digest(scope.getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(hash, 0, 8);
    } catch (NoSuchAlgorithmException absent) {
      throw new IllegalStateException("every Java platform has SHA-256", absent);
    }
  }
}
