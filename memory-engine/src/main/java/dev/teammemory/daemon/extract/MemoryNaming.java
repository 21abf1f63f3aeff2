package dev.teammemory.daemon.extract;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Names and descriptions for memories the offline extractor writes: a name is a short kebab-case
 * slug of the statement's telling words ({@code bun-npm}); a description speaks of the user in the
 * third person ("The user is a data scientist", not "I'm a data scientist") and is cut only where a
 * clause ends, never in the middle of a phrase.
 */
final class MemoryNaming {

  static final int MAX_DESCRIPTION = 150;
  private static final int SLUG_WORDS = 4;
  private static final int MAX_SLUG = 32;

  private static final Set<String> QUIET_WORDS =
      Set.of(
          "the",
          "a",
          "an",
          "and",
          "or",
          "but",
          "for",
          "with",
          "that",
          "this",
          "these",
          "those",
          "use",
          "using",
          "not",
          "are",
          "is",
          "was",
          "were",
          "be",
          "been",
          "you",
          "your",
          "our",
          "we",
          "we're",
          "i",
          "i'm",
          "me",
          "my",
          "all",
          "any",
          "its",
          "it's",
          "it",
          "from",
          "into",
          "when",
          "then",
          "than",
          "have",
          "has",
          "had",
          "always",
          "never",
          "don't",
          "dont",
          "do",
          "does",
          "please",
          "instead",
          "should",
          "must",
          "will",
          "just",
          "of",
          "to",
          "in",
          "on",
          "at",
          "by",
          "as",
          "so",
          "no",
          "yes",
          "only",
          "every",
          "there",
          "here",
          "what",
          "which",
          "who",
          "how",
          "why",
          "where",
          "them",
          "they",
          "their",
          "his",
          "her",
          "she",
          "he",
          "anything",
          "something",
          "everything",
          "really",
          "first",
          "now",
          "also",
          "mostly",
          "about",
          "like",
          "one",
          "out",
          "up",
          "off",
          "over",
          "if",
          "because",
          "after",
          "before",
          "again",
          "still",
          "too",
          "very",
          "can",
          "could",
          "would",
          "may",
          "repo",
          "repository",
          "codebase",
          "code",
          "project",
          "uses",
          "run",
          "runs",
          "come",
          "comes",
          "happen",
          "happens",
          "go",
          "goes",
          "get",
          "gets",
          "make",
          "makes",
          "take",
          "takes",
          "while",
          "without",
          "under",
          "same",
          "other",
          "each",
          "some",
          "more",
          "most",
          "user",
          "new");

  private static final Pattern WORD = Pattern.compile("[a-z0-9]+(?:['’][a-z]+)?(?:[-.][a-z0-9]+)*");

  /** Words that turn a statement around; the slug keeps one, so that "no-mock-database" says so. */
  private static final Set<String> NEGATIONS =
      Set.of("no", "not", "never", "don't", "don’t", "dont", "instead", "avoid");

  /**
   * First-person words and what they become in the third person. "I" is matched as a capital only,
   * so "i.e." stays; "us" only in lower case, so "US" stays; "we" and "us" not where a hyphen or a
   * dot joins them to more ("us-east-1"); contractions need their apostrophe, so "were" and "Ill"
   * stay words.
   */
  private static final List<Rewrite> THIRD_PERSON =
      List.of(
          new Rewrite(Pattern.compile("\\bI['’]?m\\b"), "the user is"),
          new Rewrite(Pattern.compile("\\bI am\\b"), "the user is"),
          new Rewrite(Pattern.compile("\\bI['’]?ve\\b"), "the user has"),
          new Rewrite(Pattern.compile("\\bI['’]d\\b"), "the user would"),
          new Rewrite(Pattern.compile("\\bI['’]ll\\b"), "the user will"),
          new Rewrite(Pattern.compile("\\bI\\b(?![-./]\\w)"), "the user"),
          new Rewrite(Pattern.compile("\\bmyself\\b", Pattern.CASE_INSENSITIVE), "the user"),
          new Rewrite(Pattern.compile("\\bmine\\b", Pattern.CASE_INSENSITIVE), "the user's"),
          new Rewrite(Pattern.compile("\\bmy\\b", Pattern.CASE_INSENSITIVE), "the user's"),
          new Rewrite(Pattern.compile("\\bme\\b", Pattern.CASE_INSENSITIVE), "the user"),
          new Rewrite(Pattern.compile("\\b[Ww]e['’]re\\b"), "the team is"),
          new Rewrite(Pattern.compile("\\b[Ww]e['’]ve\\b"), "the team has"),
          new Rewrite(Pattern.compile("\\b[Ww]e\\b(?![-.]\\w)"), "the team"),
          new Rewrite(Pattern.compile("\\b[Oo]ur\\b"), "the team's"),
          new Rewrite(Pattern.compile("\\bus\\b(?![-.]\\w)"), "the team"),
          new Rewrite(Pattern.compile("我(?!们)"), "用户"),
          new Rewrite(Pattern.compile("我们"), "团队"));

  private record Rewrite(Pattern firstPerson, String thirdPerson) {}

  private static final Pattern BARE_VERB =
      Pattern.compile(
          "\\b(the (?:user|team)) (use|prefer|read|want|like|need|own|work|write|run|know|speak"
              + "|review|lead|manage|maintain|freeze|deploy|ship|release|track|keep|build|test"
              + "|get|make|see|think|expect|hate|love|mean|plan|create|merge|push|call|put|store"
              + "|host|pay|send|fix|check|rely|follow|own|prefer|do|have|go)\\b",
          Pattern.CASE_INSENSITIVE);

  private static final Pattern FIRST_PERSON_START =
      Pattern.compile("^(?:\\W*)(?:I['’]?m|I am|I)\\b(?![-./]\\w)");
  private static final Pattern AND_VERB =
      Pattern.compile(
          "\\b(and) (own|use|prefer|lead|manage|maintain|run|write|work|know|speak|build)\\b");
  private static final Pattern SENTENCE_START_SUBJECT =
      Pattern.compile("([.!?]\\s+)the(?= (?:user|team)\\b)");

  private static final Pattern CLAUSE_END = Pattern.compile("[.!?;,:]\\s|\\s[—–-]\\s|[。！？，；：、]");

  private MemoryNaming() {}

  /** A short kebab-case slug of the statement's telling words; {@code fallback} without any. */
  static String slug(String statement, String fallback) {
    List<String> words = new ArrayList<>();
    boolean negated = false;
    Matcher word = WORD.matcher(statement.toLowerCase(Locale.ROOT));
    while (word.find() && words.size() < SLUG_WORDS) {
      String candidate = word.group().replace('.', '-');
      if (NEGATIONS.contains(candidate)) {
        if (!negated) {
          negated = true;
          words.add(words.isEmpty() ? "no" : "not");
        }
        continue;
      }
      if (candidate.indexOf('\'') < 0
          && candidate.indexOf('’') < 0
          && !QUIET_WORDS.contains(candidate)
          && !words.contains(candidate)) {
        words.add(candidate);
      }
    }
    while (!words.isEmpty() && (words.getLast().equals("not") || words.getLast().equals("no"))) {
      words.removeLast();
    }
    String slug = String.join("-", words);
    while (slug.length() > MAX_SLUG && slug.lastIndexOf('-') > 0) {
      slug = slug.substring(0, slug.lastIndexOf('-'));
    }
    return slug.isEmpty() ? fallback : slug;
  }

  /** The statement in the third person, cut at a clause boundary to fit a description. */
  static String description(String statement) {
    String text = statement.replaceAll("\\s+", " ").strip();
    for (Rewrite rule : THIRD_PERSON) {
      text = rule.firstPerson().matcher(text).replaceAll(rule.thirdPerson());
    }
    text = BARE_VERB.matcher(text).replaceAll(match -> agree(match.group(1), match.group(2)));
    if (FIRST_PERSON_START.matcher(statement).find()) {
      // "I'm on the SRE team and own the Terraform": the second verb has the same subject.
      text = AND_VERB.matcher(text).replaceAll(match -> agree(match.group(1), match.group(2)));
    }
    text = SENTENCE_START_SUBJECT.matcher(text).replaceAll(match -> match.group(1) + "The");
    text = text.isEmpty() ? text : Character.toUpperCase(text.charAt(0)) + text.substring(1);
    return fitted(text);
  }

  private static String agree(String subject, String verb) {
    String lower = verb.toLowerCase(Locale.ROOT);
    String third =
        switch (lower) {
          case "have" -> "has";
          case "do" -> "does";
          default -> lower.endsWith("s") || lower.endsWith("sh") ? lower + "es" : lower + "s";
        };
    return Matcher.quoteReplacement(subject + " " + third);
  }

  /** The text when it fits; else its longest run of whole clauses that does. */
  static String fitted(String text) {
    String trimmed = text.replaceAll("[\\s.。]+$", "");
    if (trimmed.length() <= MAX_DESCRIPTION) {
      return trimmed;
    }
    int best = -1;
    Matcher boundary = CLAUSE_END.matcher(trimmed);
    while (boundary.find() && boundary.start() <= MAX_DESCRIPTION) {
      if (boundary.start() >= 20) {
        best = boundary.start();
      }
    }
    if (best > 0) {
      return trimmed.substring(0, best).strip();
    }
    int space = trimmed.lastIndexOf(' ', MAX_DESCRIPTION - 1);
    return trimmed.substring(0, space > 20 ? space : MAX_DESCRIPTION - 1).strip() + "…";
  }
}
