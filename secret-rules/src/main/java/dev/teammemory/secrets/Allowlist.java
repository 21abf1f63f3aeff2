package dev.teammemory.secrets;

import static java.util.Objects.requireNonNull;

import com.google.re2j.Pattern;
import java.util.List;
import java.util.Locale;

/**
 * What a rule, or every rule, lets through: secrets or matches that a regex finds something in, and
 * secrets that contain a stop word.
 *
 * @param secretPatterns tested against the secret (the rule's capture group)
 * @param matchPatterns tested against the whole match
 * @param stopwords lower-case; a secret containing one, ignoring case, is let through
 */
record Allowlist(
    List<Pattern> secretPatterns, List<Pattern> matchPatterns, List<String> stopwords) {

  static final Allowlist NONE = new Allowlist(List.of(), List.of(), List.of());

  Allowlist {
    secretPatterns = List.copyOf(requireNonNull(secretPatterns, "secretPatterns is null"));
    matchPatterns = List.copyOf(requireNonNull(matchPatterns, "matchPatterns is null"));
    stopwords = List.copyOf(requireNonNull(stopwords, "stopwords is null"));
    for (String stopword : stopwords) {
      if (stopword.isEmpty() || !stopword.equals(stopword.toLowerCase(Locale.ROOT))) {
        throw new IllegalArgumentException("stop word must be non-empty lower case: " + stopword);
      }
    }
  }

  boolean allows(String secret, String match) {
    for (Pattern pattern : secretPatterns) {
      if (pattern.matcher(secret).find()) {
        return true;
      }
    }
    for (Pattern pattern : matchPatterns) {
      if (pattern.matcher(match).find()) {
        return true;
      }
    }
    if (!stopwords.isEmpty()) {
      String lowerCaseSecret = secret.toLowerCase(Locale.ROOT);
      for (String stopword : stopwords) {
        if (lowerCaseSecret.contains(stopword)) {
          return true;
        }
      }
    }
    return false;
  }
}
