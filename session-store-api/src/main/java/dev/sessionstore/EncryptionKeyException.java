package dev.sessionstore;

/**
 * A value stored encrypted cannot be decrypted: the key it names is not available, or the key of that id does not
 * open it (a wrong key, or a value changed where it is stored). Never garbage: an encrypting store either returns the
 * plaintext it was given or throws this, naming the key id. Not retryable until the key is made available.
 */
public class EncryptionKeyException extends SessionStoreException {

  /** The id of the key the value names. */
  private final String keyId;

  /**
   * The value sealed under {@code keyId} cannot be opened, for the reason {@code message} (which names the key id),
   * from {@code cause} (the cipher's failure, or null).
   */
  public EncryptionKeyException(String keyId, String message, Throwable cause) {
    super(message, cause);
    this.keyId = keyId;
  }

  /** The id of the key the undecryptable value names. */
  public String keyId() {
    return keyId;
  }
}
