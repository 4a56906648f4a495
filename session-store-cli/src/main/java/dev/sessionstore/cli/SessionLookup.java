package dev.sessionstore.cli;

import dev.sessionstore.Session;
import dev.sessionstore.SessionStore;

/** Finds the session a command line names: by exact id first, then by exact name. */
final class SessionLookup {

  private SessionLookup() {
  }

  /**
   * The session whose id, else whose name, is {@code idOrName}.
   *
   * @throws CliFailure with {@link ExitCode#UNKNOWN_SESSION} if there is none
   */
  static Session require(SessionStore store, String idOrName) {
    return store.sessions().find(idOrName)
        .or(() -> store.sessions().findByName(idOrName))
        .orElseThrow(() -> new CliFailure(ExitCode.UNKNOWN_SESSION, "no session with id or name \"" + idOrName
            + "\""));
  }
}
