package dev.sessionstore.crypto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HexFormat;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** HKDF-SHA256 against the test vectors of RFC 5869, appendix A (cases 1 to 3, the SHA-256 ones). */
class HkdfTest {

  private static final HexFormat HEX = HexFormat.of();

  @Test
  @DisplayName("A.1: basic test case with SHA-256")
  void case1() {
    check("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "000102030405060708090a0b0c", "f0f1f2f3f4f5f6f7f8f9", 42,
        "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
        "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865");
  }

  @Test
  @DisplayName("A.2: test with SHA-256 and longer inputs/outputs")
  void case2() {
    check(range(0x00, 0x4f), range(0x60, 0xaf), range(0xb0, 0xff), 82,
        "06a6b88c5853361a06104c9ceb35b45cef760014904671014a193f40c15fc244",
        "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c"
            + "2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87");
  }

  @Test
  @DisplayName("A.3: test with SHA-256 and zero-length salt/info")
  void case3() {
    check("0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", "", "", 42,
        "19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
        "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8");
  }

  @Test
  @DisplayName("Expanding past 255 blocks, or to nothing, is refused")
  void lengthBounds() {
    byte[] prk = new byte[32];
    assertThat(Hkdf.expand(prk, new byte[0], 255 * 32)).hasSize(255 * 32);
    assertThatThrownBy(() -> Hkdf.expand(prk, new byte[0], 255 * 32 + 1)).isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> Hkdf.expand(prk, new byte[0], 0)).isInstanceOf(IllegalArgumentException.class);
  }

  private static void check(String ikm, String salt, String info, int length, String prk, String okm) {
    byte[] extracted = Hkdf.extract(HEX.parseHex(salt), HEX.parseHex(ikm));
    assertThat(HEX.formatHex(extracted)).isEqualTo(prk);
    assertThat(HEX.formatHex(Hkdf.expand(extracted, HEX.parseHex(info), length))).isEqualTo(okm);
    assertThat(HEX.formatHex(Hkdf.derive(HEX.parseHex(salt), HEX.parseHex(ikm), HEX.parseHex(info), length)))
        .isEqualTo(okm);
  }

  private static String range(int from, int to) {
    StringBuilder hex = new StringBuilder();
    for (int b = from; b <= to; b++) {
      hex.append(String.format("%02x", b));
    }
    return hex.toString();
  }
}
