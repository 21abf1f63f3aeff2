package dev.teammemory.secrets;

import java.util.Map;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Expands the rule file's example templates into text: {@code {CLASS:N}} becomes N random
 * characters of CLASS, {@code {c*N}} the character c N times, {@code \n} a newline. The random
 * source is seeded, so an example expands the same way on every run.
 */
final class ExampleText {

  private static final Map<String, String> CLASSES =
      Map.ofEntries(
          Map.entry("alnum", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"),
          Map.entry("alpha", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"),
          Map.entry("lower", "abcdefghijklmnopqrstuvwxyz"),
          Map.entry("upper", "ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
          Map.entry("digits", "0123456789"),
          Map.entry("hex", "0123456789abcdef"),
          Map.entry("HEX", "0123456789ABCDEF"),
          Map.entry("base32", "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"),
          Map.entry("base64", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"),
          Map.entry(
              "base64url", "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"),
          Map.entry("lowernum", "abcdefghijklmnopqrstuvwxyz0123456789"),
          Map.entry("uppernum", "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"),
          Map.entry(
              "bech32", "qpzry9x8gf2tvdw0s3jn54khce6mua7l".toUpperCase(java.util.Locale.ROOT)));

  private static final Pattern PLACEHOLDER =
      Pattern.compile("\\{([A-Za-z0-9]+):(\\d+)\\}|\\{(.)\\*(\\d+)\\}");

  private ExampleText() {}

  /** The example's text, with randomness seeded from where the example sits. */
  static String expand(String template, String ruleId, int index) {
    return expand(template, new Random(31L * ruleId.hashCode() + index));
  }

  static String expand(String template, Random random) {
    Matcher matcher = PLACEHOLDER.matcher(unescape(template));
    StringBuilder text = new StringBuilder();
    while (matcher.find()) {
      String replacement;
      if (matcher.group(1) != null) {
        String alphabet = CLASSES.get(matcher.group(1));
        if (alphabet == null) {
          throw new IllegalArgumentException("unknown character class: " + matcher.group(1));
        }
        replacement = random(alphabet, Integer.parseInt(matcher.group(2)), random);
      } else {
        replacement = matcher.group(3).repeat(Integer.parseInt(matcher.group(4)));
      }
      matcher.appendReplacement(text, Matcher.quoteReplacement(replacement));
    }
    return matcher.appendTail(text).toString();
  }

  static String random(String alphabet, int length, Random random) {
    StringBuilder text = new StringBuilder(length);
    for (int i = 0; i < length; i++) {
      text.append(alphabet.charAt(random.nextInt(alphabet.length())));
    }
    return text.toString();
  }

  static String alphabet(String characterClass) {
    return CLASSES.get(characterClass);
  }

  private static String unescape(String template) {
    StringBuilder text = new StringBuilder(template.length());
    for (int i = 0; i < template.length(); i++) {
      char c = template.charAt(i);
      if (c == '\\' && i + 1 < template.length()) {
        char next = template.charAt(++i);
        switch (next) {
          case 'n' -> text.append('\n');
          case 't' -> text.append('\t');
          case '\\' -> text.append('\\');
          default -> text.append(c).append(next);
        }
      } else {
        text.append(c);
      }
    }
    return text.toString();
  }
}
