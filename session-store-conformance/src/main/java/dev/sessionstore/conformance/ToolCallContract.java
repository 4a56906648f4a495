package dev.sessionstore.conformance;

/** TODO group: to be written. */
public abstract class ToolCallContract extends Contract {

  protected ToolCallContract(SessionStoreConformance kit) {
    super(kit);
  }
}
