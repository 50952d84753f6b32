package io.jdra.kubelet.dra.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * A {@link Checkpointer} over one file, written as upstream's checkpoint manager does: the new
 * content goes to a temporary file in the same directory, which is synced and then renamed over the
 * old one, and the directory is synced so the rename itself is durable.
 */
public final class FileCheckpointer implements Checkpointer {
  /** Upstream's file name under the kubelet root directory. */
  public static final String DRA_MANAGER_STATE = "dra_manager_state";

  private final Path file;

  public FileCheckpointer(Path stateDir, String name) throws IOException {
    if (name == null || name.isEmpty()) {
      throw new IllegalArgumentException("checkpoint name is empty");
    }
    Files.createDirectories(stateDir);
    this.file = stateDir.resolve(name);
  }

  public Path file() {
    return file;
  }

  @Override
  public synchronized List<ClaimInfoState> getOrCreate() throws IOException {
    byte[] content;
    try {
      content = Files.readAllBytes(file);
    } catch (NoSuchFileException e) {
      write(List.of());
      return List.of();
    }
    try {
      return CheckpointCodec.decode(content);
    } catch (CorruptCheckpointException e) {
      throw new CorruptCheckpointException("read checkpoint " + file + ": " + e.getMessage(), e);
    }
  }

  @Override
  public synchronized void store(List<ClaimInfoState> entries) throws IOException {
    write(entries);
  }

  private void write(List<ClaimInfoState> entries) throws IOException {
    byte[] content = CheckpointCodec.encode(entries);
    Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      ByteBuffer buf = ByteBuffer.wrap(content);
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    try (FileChannel dir = FileChannel.open(file.getParent(), StandardOpenOption.READ)) {
      dir.force(true);
    }
  }
}
