package io.jdra.apiserver.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Upstream's token file format, jdra's extra column, and authentication by token. */
class TokenFileTest {
  @TempDir Path dir;

  @Test
  void readsUpstreamRecordsAndExtras() throws Exception {
    Path f = dir.resolve("tokens.csv");
    Files.writeString(
        f,
        """
        t1,system:kube-scheduler,uid-1
        t2,system:node:node-1,,"system:nodes"

        t3,system:serviceaccount:ns:sa,uid-3,"system:serviceaccounts,system:serviceaccounts:ns",\
        "authentication.kubernetes.io/node-name=node-1"
        """);
    Map<String, UserInfo> users = TokenFile.read(f);
    assertThat(users.get("t1"))
        .isEqualTo(new UserInfo("system:kube-scheduler", "uid-1", List.of(), Map.of()));
    assertThat(users.get("t2").nodeName()).contains("node-1");
    assertThat(users.get("t3").groups())
        .containsExactly("system:serviceaccounts", "system:serviceaccounts:ns");
    assertThat(users.get("t3").firstExtra(UserInfo.NODE_NAME_EXTRA)).isEqualTo("node-1");
  }

  @Test
  void writesWhatItReads() throws Exception {
    UserInfo driver = UserInfo.serviceAccount("dra-example-driver", "sa", "node-7");
    Path f = dir.resolve("tokens.csv");
    Files.writeString(f, TokenFile.line("tok", driver) + "\n");
    assertThat(TokenFile.read(f).get("tok").authenticated()).isEqualTo(driver);
  }

  @Test
  void aShortRecordIsAnErrorNamingTheLine() throws Exception {
    Path f = dir.resolve("tokens.csv");
    Files.writeString(f, "t1,alice,uid\nt2,bob\n");
    assertThatThrownBy(() -> TokenFile.read(f))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "token file '"
                + f
                + "' line 2 must have at least 3 columns (token, user name, user uid), found 2");
  }

  @Test
  void authenticatesKnownBearerTokensOnly() {
    TokenAuthenticator a = new TokenAuthenticator(Map.of("secret", UserInfo.node("node-1")));
    assertThat(a.authenticate("Bearer secret").orElseThrow().groups())
        .containsExactly(UserInfo.NODES_GROUP, UserInfo.AUTHENTICATED);
    assertThat(a.authenticate("bearer secret")).isPresent();
    assertThat(a.authenticate("Bearer secre")).isEmpty();
    assertThat(a.authenticate("Basic secret")).isEmpty();
    assertThat(a.authenticate(null)).isEmpty();
  }
}
