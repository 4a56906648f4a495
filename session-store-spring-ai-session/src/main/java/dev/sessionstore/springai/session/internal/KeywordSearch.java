package dev.sessionstore.springai.session.internal;

import dev.sessionstore.Event;
import dev.sessionstore.Limits;
import dev.sessionstore.Search;
import dev.sessionstore.SearchHit;
import dev.sessionstore.SearchPage;
import dev.sessionstore.SearchQuery;
import dev.sessionstore.SearchTerm;
import dev.sessionstore.SearchWords;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.springframework.ai.chat.messages.Message;

/**
 * {@code EventFilter.keyword} through the store's search read: the keyword's words ({@link SearchWords}), one word as
 * a prefix or several as a phrase, searched in one session among the message event types, then kept only where the
 * message's text holds them (the search also reads metadata and tool arguments, spring-ai-session's keyword only the
 * text). The search reads its index, not the log: the work follows the events that hold the words.
 *
 * <p>The match is by words, where spring-ai-session's in-memory repository matches any substring: {@code weath}
 * finds {@code weather} (a prefix), {@code ather} does not; {@code "new york"} finds {@code New-York} too.
 */
public final class KeywordSearch {

  private final List<String> words;

  /**
   * The search for {@code keyword}.
   *
   * @throws IllegalArgumentException when the keyword holds no word (only spaces or punctuation)
   */
  public KeywordSearch(String keyword) {
    this.words = SearchWords.of(keyword);
    if (words.isEmpty()) {
      throw new IllegalArgumentException("keyword '" + keyword + "' holds no word to search for");
    }
    if (words.size() > 1 && String.join(" ", words).length() > Limits.MAX_SEARCH_TEXT_LENGTH) {
      throw new IllegalArgumentException("keyword longer than " + Limits.MAX_SEARCH_TEXT_LENGTH + " chars");
    }
  }

  /** The events of {@code sessionId} among {@code types}, at or after {@code since} (or any time), that match. */
  public List<Event> find(Search search, String sessionId, Set<String> types, Instant since) {
    SearchTerm term = words.size() == 1 ? SearchTerm.prefix(words.get(0))
        : SearchTerm.phrase(words.toArray(String[]::new));
    SearchQuery query = new SearchQuery(List.of(term), sessionId, null, Map.of(), types, null, null, since, null,
        Limits.MAX_SEARCH_LIMIT, null);
    List<Event> found = new ArrayList<>();
    while (true) {
      SearchPage page = search.find(query);
      for (SearchHit hit : page.hits()) {
        if (inText(SessionEventCodec.decode(hit.event(), false).getMessage())) {
          found.add(hit.event());
        }
      }
      if (page.nextCursor().isEmpty()) {
        return found;
      }
      query = query.after(page.nextCursor().get());
    }
  }

  private boolean inText(Message message) {
    String text = message.getText();
    if (text == null) {
      return false;
    }
    List<String> textWords = SearchWords.of(text);
    for (int start = 0; start + words.size() <= textWords.size(); start++) {
      if (words.size() == 1 ? textWords.get(start).startsWith(words.get(0))
          : textWords.subList(start, start + words.size()).equals(words)) {
        return true;
      }
    }
    return false;
  }
}
