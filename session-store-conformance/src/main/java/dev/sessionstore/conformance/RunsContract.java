package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class RunsContract extends Contract {

  protected RunsContract(SessionStoreConformance kit) {
    super(kit);
  }
}
