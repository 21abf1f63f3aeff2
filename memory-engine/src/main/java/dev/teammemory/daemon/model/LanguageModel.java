package dev.teammemory.daemon.model;

import java.util.Locale;
import java.util.Map;

/**
 * The language-model port of the memory engine. There are two adapters and every feature decides,
 * with an exhaustive {@code switch}, what it does with each: ask Anthropic's Messages API, or do
 * the work offline from the files themselves (lexical recall, notes built from the transcript). The
 * offline adapter is chosen when no key is set, so everything works on a fresh machine.
 */
public sealed interface LanguageModel permits AnthropicLanguageModel, OfflineLanguageModel {

  /** One line for a person: which model, where, or why offline. */
  String describe();

  /**
   * The Anthropic adapter when {@code ANTHROPIC_API_KEY} is set and {@code TMEM_OFFLINE} is not
   * truthy, the offline one otherwise.
   *
   * @throws IllegalArgumentException when a model setting is malformed
   */
  static LanguageModel fromEnvironment(Map<String, String> environment) {
    String offline = environment.getOrDefault("TMEM_OFFLINE", "").strip().toLowerCase(Locale.ROOT);
    if (offline.equals("1")
        || offline.equals("true")
        || offline.equals("yes")
        || offline.equals("on")) {
      return new OfflineLanguageModel("TMEM_OFFLINE is set");
    }
    ModelSettings settings = ModelSettings.fromEnvironment(environment);
    if (settings.apiKey().isEmpty()) {
      return new OfflineLanguageModel("ANTHROPIC_API_KEY is not set");
    }
    return new AnthropicLanguageModel(settings);
  }
}
