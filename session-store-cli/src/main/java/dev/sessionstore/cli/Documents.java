package dev.sessionstore.cli;

/**
 * How {@link Records} writes a record's JSON documents (payload, settings, arguments, result, usage, error, content,
 * context).
 */
enum Documents {

  /**
   * As strings holding the document's exact stored text: the export format, so that an import stores the same bytes
   * (guarantee 18 of docs/guarantees.md).
   */
  EXACT_TEXT,

  /**
   * As the JSON values they are (objects, arrays, strings, numbers exactly as stored): the {@code --json} output, for
   * scripts that read a payload's fields without parsing a string a second time.
   */
  VALUES
}
