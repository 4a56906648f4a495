package dev.sessionstore;

/**
 * The store was closed: every operation of a {@link SessionStore} and of each aggregate it handed out fails with this
 * exception once {@link SessionStore#close()} has been called, and a waiting read or tool-call wait still blocked
 * when the store is closed ends promptly with it. Nothing of the failed call was written.
 */
public class StoreClosedException extends SessionStoreException {

  /** The store was closed before or during the call; nothing more will be done by it. Not retryable on this store. */
  public StoreClosedException() {
    super("the session store is closed");
  }

  /** The store was closed while a call ran; {@code cause} is how the call ended inside the adapter. */
  public StoreClosedException(Throwable cause) {
    super("the session store is closed", cause);
  }
}
