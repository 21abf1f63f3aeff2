package dev.teammemory.protocol.store;

import com.fasterxml.jackson.annotation.JsonProperty;

/**
 * Who did something, as the Memory Stores API names a person: {@code {"type":"user_actor",
 * "user_id":"<login>"}} (a version's {@code created_by}, a memory's {@code updated_by}).
 */
public record UserActor(@JsonProperty("type") String type, @JsonProperty("user_id") String userId) {

  /** The actor of a person by their login. */
  public static UserActor of(String userId) {
    return new UserActor("user_actor", userId);
  }
}
