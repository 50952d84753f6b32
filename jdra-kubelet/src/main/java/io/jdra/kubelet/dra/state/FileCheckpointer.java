package io.jdra.kubelet.dra.state;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A {@link Checkpointer} over one file, written as upstream's checkpoint manager (its file store)
 * does: the new content goes to a temporary file in the same directory, which is synced and then
 * renamed over the old one. As there, the directory is not synced: the rename reaches the disk with
 * the file system's next journal commit, and a crash before that leaves the previous checkpoint,
 * which the manager recovers from as from a crash just before the write (preparing again is
 * idempotent; the reconcile loop finds pods that are gone). A directory sync would add a second
 * disk flush to each of the two writes on a pod's start path.
 *
 * <p>Each entry is encoded once ({@link CheckpointCodec#encodeEntry}) and reused while the cache
 * holds the same (immutable) state object, so a write costs a copy and a checksum of the file, not
 * a serialization of every claim on the node.
 */
public final class FileCheckpointer implements Checkpointer {
  /** Upstream's file name under the kubelet root directory. */
  public static final String DRA_MANAGER_STATE = "dra_manager_state";

  private final Path file;

  /** Encodings of the entries of the last write, by identity (states are immutable). */
  private Map<ClaimInfoState, CheckpointCodec.Entry> encoded = new IdentityHashMap<>();

  /**
   * The file content of the last write, reused: a node with 1,000 claims writes 375 KB twice per
   * pod start; assembled afresh each time (and copied once more) it was a tenth of all allocation
   * in the pod start benchmark's process, API server included.
   */
  private ByteBuffer buffer = ByteBuffer.allocate(0);

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
    Map<ClaimInfoState, CheckpointCodec.Entry> next = new IdentityHashMap<>();
    List<CheckpointCodec.Entry> parts = new ArrayList<>(entries.size());
    for (ClaimInfoState e : entries) {
      CheckpointCodec.Entry part = encoded.get(e);
      if (part == null) {
        part = CheckpointCodec.encodeEntry(e);
      }
      next.put(e, part);
      parts.add(part);
    }
    int size = CheckpointCodec.assembledSize(parts);
    if (buffer.capacity() < size) {
      // Room for growth, so a node gaining claims does not reallocate on every write.
      buffer = ByteBuffer.allocate(size + size / 4);
    }
    ByteBuffer buf = buffer.clear();
    CheckpointCodec.assemble(parts, buf);
    buf.flip();
    Path tmp = file.resolveSibling("." + file.getFileName() + ".tmp");
    try (FileChannel ch =
        FileChannel.open(
            tmp,
            StandardOpenOption.CREATE,
            StandardOpenOption.WRITE,
            StandardOpenOption.TRUNCATE_EXISTING)) {
      while (buf.hasRemaining()) {
        ch.write(buf);
      }
      ch.force(true);
    }
    Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
    encoded = next;
  }
}
