package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class SessionsContract extends Contract {

  protected SessionsContract(SessionStoreConformance kit) {
    super(kit);
  }
}
