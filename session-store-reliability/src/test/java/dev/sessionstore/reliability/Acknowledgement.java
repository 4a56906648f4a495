package dev.sessionstore.reliability;

import java.util.Optional;

/** One acknowledgement a {@link StoreProcess} reported: the event id and seq an append returned. */
record Acknowledgement(String eventId, long seq) {

  /** The acknowledgement on a complete {@code ack <id> <seq> .} line, or empty for any other line. */
  static Optional<Acknowledgement> parse(String line) {
    String[] words = line.split(" ");
    if (words.length != 4 || !words[0].equals("ack") || !words[3].equals(".")) {
      return Optional.empty();
    }
    return Optional.of(new Acknowledgement(words[1], Long.parseLong(words[2])));
  }
}
