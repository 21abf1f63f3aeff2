package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

/**
 * No model at all: features that receive this adapter do their work from the files themselves.
 *
 * @param reason why no model is used, for status output
 */
public record OfflineLanguageModel(String reason) implements LanguageModel {

  public OfflineLanguageModel {
    requireNonNull(reason, "reason is null");
  }

  @Override
  public String describe() {
    return "offline (" + reason + ")";
  }
}
