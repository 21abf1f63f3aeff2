package dev.teammemory.daemon.model;

import static java.util.Objects.requireNonNull;

import java.util.List;
import java.util.Locale;

/** One message of a Messages API conversation. */
public record ModelMessage(Role role, List<ModelContent> content) {

  public enum Role {
    USER,
    ASSISTANT;

    String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  public ModelMessage {
    requireNonNull(role, "role is null");
    content = List.copyOf(content);
    if (content.isEmpty()) {
      throw new IllegalArgumentException("a message needs at least one content block");
    }
  }

  public static ModelMessage user(String text) {
    return new ModelMessage(Role.USER, List.of(new ModelContent.Text(text)));
  }

  public static ModelMessage assistant(String text) {
    return new ModelMessage(Role.ASSISTANT, List.of(new ModelContent.Text(text)));
  }
}
