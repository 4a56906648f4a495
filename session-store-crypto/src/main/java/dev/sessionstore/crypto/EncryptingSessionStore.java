package dev.sessionstore.crypto;

import dev.sessionstore.Capability;
import dev.sessionstore.InvalidArgumentException;
import dev.sessionstore.Search;
import dev.sessionstore.SessionStore;
import dev.sessionstore.UnsupportedCapabilityException;
import dev.sessionstore.spi.Arguments;
import dev.sessionstore.spi.ForwardingSessionStore;
import dev.sessionstore.spi.Interception;
import dev.sessionstore.spi.StoredValues;
import dev.sessionstore.spi.ValidatingSessionStore;

/**
 * A {@link SessionStore} that encrypts what it writes into any store it wraps and decrypts what it reads, and is
 * otherwise that store: every guarantee holds on the plaintext values (the whole conformance kit passes on an
 * encrypting store over the in-memory store, and its groups that write or read sealed values over the PostgreSQL
 * store).
 *
 * <pre>{@code
 * SessionStore store = EncryptingSessionStore.builder(JdbcSessionStore.builder().dataSource(ds).build())
 *     .keys(KeyProvider.of("2026-11", masterKeyBytes))
 *     .build();
 * }</pre>
 *
 * <p><b>Encrypted:</b> event payloads, tool-call arguments and results, summary contents, checkpoint data (session
 * and global), model-call audit contexts and usage, with AES-256-GCM under a key derived for each session by HKDF
 * (RFC 5869, HMAC-SHA256) from the current master key of the {@link KeyProvider}; every stored value names its key id.
 * <b>In clear:</b> ids, seqs, event types, names, agents, tenants, statuses, timestamps, deadlines, summary ranges,
 * session settings and metadata (listing and eager resumption read them), runs (usage and error included), tool and
 * model names, checkpoint names. Values the adapter writes itself (the result of an expired tool call) and values
 * written before encryption was turned on are read as they are stored.
 *
 * <p><b>Idempotency on plaintext.</b> Sealing is deterministic (a synthetic nonce: the same plaintext in the same
 * place under the same key seals to the same bytes), so the adapter's replays work; a replay sealed differently
 * (after a key rotation, or spelled differently) is recognized by opening the stored value and comparing plaintext.
 * The cost: a reader of the database can tell equal values of one session and kind apart from different ones.
 *
 * <p><b>Keys.</b> New values are sealed under {@link KeyProvider#currentKeyId()}; a value sealed under another id
 * opens while the provider still has that key ({@link KeyRing}). A value whose key is missing, or which its key does
 * not open, fails with {@link dev.sessionstore.EncryptionKeyException} naming the key id: never garbage.
 *
 * <p><b>No search.</b> An encrypting store does not declare {@link Capability#SEARCH}, and {@link #search()} refuses
 * with an {@link UnsupportedCapabilityException} saying why: a store's search reads an index of the payloads' words,
 * and the store below sees only sealed payloads, so it could only index ciphertext, which no query matches. Nothing
 * about the plaintext is indexed or leaks through search; the wrapped store's own index, if it keeps one, holds
 * fragments of the sealed text it already stores. Not taken: keyed blind word tokens (an HMAC of each normalized word
 * under a search key, stored beside the sealed payload), which would find exact words but not prefixes or phrases, and
 * would show a reader of the database which events share a word, how often each word occurs and which words a query
 * asks for, enough for frequency analysis against the language of the conversations.
 *
 * <p><b>Limits.</b> Arguments are checked in plaintext, with the contract's limits, before anything is sealed. A
 * sealed document is base64 and longer than its plaintext: plaintexts of 256 bytes or more are compressed before
 * sealing when that helps (see {@link Builder#compression}), and a value that still does not fit the adapter's limit
 * once sealed is rejected with an {@link InvalidArgumentException}.
 *
 * <p>Thread-safe when the wrapped store and the key provider are. Closing closes the wrapped store.
 */
public final class EncryptingSessionStore extends ForwardingSessionStore {

  /** Why {@link #search()} is refused, in its exception's message. */
  static final String NO_SEARCH = "an encrypting store does not search: search reads an index of the payloads'"
      + " words, and the store below it holds only sealed payloads, whose words no query matches; search the"
      + " plaintext where it is decrypted, or keep what must be searched in a store without encryption";

  /** How many values a re-encryption pass reads per page. */
  static final int PAGE = 500;

  private final SessionStore wrapped;
  private final Sealer sealer;

  private EncryptingSessionStore(SessionStore validated, SessionStore wrapped, Sealer sealer) {
    super(validated, Interception.none());
    this.wrapped = wrapped;
    this.sealer = sealer;
  }

  /**
   * Moves every stored value sealed under another key than the provider's current one to the current key, in place,
   * so that the old key can then leave the {@link KeyRing}: event payloads, tool-call arguments and results, summary
   * contents, checkpoint data (session and global) and model-call audit rows. Values already under the current key,
   * and values stored in clear, are left as they are. Safe beside live writers: each value is replaced by a
   * compare-and-set, so a value a writer changed since the pass read it is left as the writer wrote it (sealed under
   * the current key) and counted as {@link ReencryptResult#changed()}; nothing else about a value changes (no
   * timestamp, seq or status), and readers see either form, both of which open. Idempotent: a run after a complete
   * one rewrites nothing. A run stopped by {@link ReencryptOptions#limit()} returns the cursor a later run resumes
   * from.
   *
   * <p>Requires a wrapped store with {@link Capability#STORED_VALUE_REWRITE} (the in-memory, JDBC and Cassandra
   * stores have it).
   *
   * @return what was done (or, as a dry run, would be)
   * @throws InvalidArgumentException                  naming {@code options} if null, {@code cursor} if its resume
   *                                                   cursor is not one a pass returned
   * @throws dev.sessionstore.UnsupportedCapabilityException if the wrapped store lacks
   *                                                   {@link Capability#STORED_VALUE_REWRITE}
   * @throws dev.sessionstore.EncryptionKeyException   naming the key id if a value's key is missing from the
   *                                                   provider or does not open it (values before it stay rewritten;
   *                                                   run again with the key, resuming or from the start)
   */
  public ReencryptResult reencrypt(ReencryptOptions options) {
    Arguments.requireNonNull("options", options);
    StoredValues values = wrapped.unwrap(StoredValues.class)
        .orElseThrow(() -> new UnsupportedCapabilityException(Capability.STORED_VALUE_REWRITE));
    return new Reencryption(values, sealer, PAGE).run(options);
  }

  /**
   * Refused, always: an encrypting store does not search (see the type's javadoc, "No search").
   *
   * @throws dev.sessionstore.StoreClosedException if the store is closed
   * @throws UnsupportedCapabilityException        naming {@link Capability#SEARCH}, with the reason
   */
  @Override
  public Search search() {
    try {
      return super.search();
    } catch (UnsupportedCapabilityException absent) {
      throw new UnsupportedCapabilityException(Capability.SEARCH, NO_SEARCH);
    }
  }

  /**
   * A builder encrypting into {@code store}; the encrypting store owns it from {@link Builder#build()} on.
   *
   * @throws InvalidArgumentException naming {@code store} if it is null
   */
  public static Builder builder(SessionStore store) {
    return new Builder(Arguments.requireNonNull("store", store));
  }

  /** Builds an {@link EncryptingSessionStore}. Each setter may be called once. Not thread-safe; the store is. */
  public static final class Builder {

    private final SessionStore store;
    private KeyProvider keys;
    private Boolean compression;

    private Builder(SessionStore store) {
      this.store = store;
    }

    /**
     * Where master keys come from (required).
     *
     * @throws InvalidArgumentException naming {@code keys} if null or set before
     */
    public Builder keys(KeyProvider keys) {
      Arguments.requireNonNull("keys", keys);
      if (this.keys != null) {
        throw new InvalidArgumentException("keys", "is already set to " + this.keys);
      }
      this.keys = keys;
      return this;
    }

    /**
     * Whether plaintexts of 256 bytes or more are deflated before sealing when that makes them shorter (default
     * true): values near the adapter's size limits then still fit once sealed, but the stored length of a value hints
     * at how repetitive it is. Turn it off where an attacker can place chosen text next to secrets in one value and
     * watch stored sizes.
     *
     * @throws InvalidArgumentException naming {@code compression} if set before
     */
    public Builder compression(boolean enabled) {
      if (compression != null) {
        throw new InvalidArgumentException("compression", "is already set to " + compression);
      }
      compression = enabled;
      return this;
    }

    /**
     * The encrypting store.
     *
     * @throws InvalidArgumentException naming {@code keys} if none were given, or the provider lacks its current key
     */
    public EncryptingSessionStore build() {
      if (keys == null) {
        throw new InvalidArgumentException("keys", "is required: give the KeyProvider of the master keys");
      }
      String current = keys.currentKeyId();
      if (current == null || keys.key(current).isEmpty()) {
        throw new InvalidArgumentException("keys", "the provider's current key " + current + " is not available");
      }
      Sealer sealer = new Sealer(keys, compression == null || compression);
      return new EncryptingSessionStore(ValidatingSessionStore.wrap(new SealingSessionStore(store, new Values(sealer))),
          store, sealer);
    }
  }
}
