package dev.teammemory.daemon.sync;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class CheckpointTest {

  @Test
  void savesOncePerThirtyTwoAcknowledgedFilesNotOncePerFile() {
    AtomicInteger saves = new AtomicInteger();
    Checkpoint checkpoint = new Checkpoint(saves::incrementAndGet);

    for (int i = 0; i < 100; i++) {
      checkpoint.acknowledged(1);
    }

    assertThat(saves).hasValue(3);
  }

  @Test
  void aBatchOfManyFilesSavesAtOnce() {
    AtomicInteger saves = new AtomicInteger();
    Checkpoint checkpoint = new Checkpoint(saves::incrementAndGet);

    checkpoint.acknowledged(5);
    assertThat(saves).hasValue(0);
    checkpoint.acknowledged(200);
    assertThat(saves).hasValue(1);
  }
}
