#!/usr/bin/env bash
# Regenerates the binary parser fixtures in this folder. Run once by hand; the outputs are committed and the
# tests never need these tools. Needs: libreoffice-writer (headless), fonts-dejavu, fonts-noto-cjk, qpdf, python3.
#   apt-get install -y --no-install-recommends libreoffice-writer-nogui fonts-dejavu fonts-noto-cjk qpdf
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cd "$work"
export HOME="$work" # LibreOffice writes its profile under $HOME

to_pdf() { soffice --headless --infilter="HTML (StarWriter)" --convert-to pdf:writer_pdf_Export --outdir "$work/out" "$1" >/dev/null; }
to_docx() { soffice --headless --infilter="HTML (StarWriter)" --convert-to 'docx:MS Word 2007 XML' --outdir "$work/out" "$1" >/dev/null; }
BREAK='<p style="page-break-before: always"></p>'

cat > sample.html <<EOF
<html><head><meta charset="utf-8"><title>Shipping and Returns Handbook</title></head><body style="font-family: DejaVu Sans">
<h1>Shipping Terms</h1>
<p>All export orders ship under Incoterms FOB Shanghai unless the contract names another term.</p>
<p>The freight forwarder books container space at least ten days before the vessel cut-off date.</p>
$BREAK
<h1>Returns Policy</h1>
<p>Customers may return defective goods within thirty days of delivery for a full refund.</p>
<p>Return authorisation numbers are issued by the customer service desk in Rotterdam.</p>
$BREAK
<h1>Product Safety</h1>
<p>Every battery shipment carries a UN38.3 test summary and a dangerous goods declaration.</p>
</body></html>
EOF

cat > russian.html <<EOF
<html><head><meta charset="utf-8"><title>Таможенное оформление</title></head><body style="font-family: DejaVu Sans">
<h1>Таможенное оформление</h1>
<p>Таможенная декларация подаётся в электронном виде до прибытия товара на склад временного хранения.</p>
<p>Таможня проверяет документы в течение четырёх часов после регистрации декларации.</p>
$BREAK
<h1>Возврат товара</h1>
<p>Бракованный товар возвращается поставщику по процедуре реэкспорта без уплаты таможенной пошлины.</p>
</body></html>
EOF

cat > chinese.html <<EOF
<html><head><meta charset="utf-8"><title>海关申报指南</title></head><body style="font-family: 'Noto Sans CJK SC'">
<h1>海关申报</h1>
<p>所有进口货物必须在到港前向海关申报，并提供商业发票和装箱单。</p>
$BREAK
<h1>退货政策</h1>
<p>客户可以在收货后三十天内申请退货，退货商品应保持原包装。</p>
</body></html>
EOF

cat > headings.html <<EOF
<html><head><meta charset="utf-8"><title>Warehouse Operations Manual</title></head><body>
<h1>Receiving</h1>
<p>Inbound pallets are counted against the advance shipping notice before they are put away.</p>
<h2>Damaged Goods</h2>
<p>Photograph any damaged carton and record it on the delivery receipt before signing.</p>
<h2>Quarantine</h2>
<p>Goods without a certificate of conformity stay in the quarantine cage until quality control releases them.</p>
<h1>Dispatch</h1>
<p>Orders picked before two o'clock leave the warehouse on the same day.</p>
<ul><li>Check the packing list.</li><li>Print the carrier label.</li></ul>
</body></html>
EOF

cat > russian-docx.html <<EOF
<html><head><meta charset="utf-8"></head><body>
<h1>Таможенные платежи</h1>
<p>Таможенные платежи уплачиваются до выпуска товаров для внутреннего потребления.</p>
<h2>Ставки пошлин</h2>
<p>Ставка ввозной таможенной пошлины определяется по коду товара в таможенном тарифе.</p>
</body></html>
EOF

# A page that holds only a picture of text (a scanned page): no text layer.
python3 - <<'PY'
import struct, zlib
w, h = 400, 200
rows = []
for y in range(h):
    row = bytearray([0])
    for x in range(w):
        ink = (y // 20) % 2 == 1 and 20 <= x < 380 and (x // 7) % 6 != 0
        row.append(0 if ink else 255)
    rows.append(bytes(row))
def chunk(t, d):
    c = struct.pack('>I', len(d)) + t + d
    return c + struct.pack('>I', zlib.crc32(t + d) & 0xffffffff)
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 0, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(b''.join(rows), 9)) + chunk(b'IEND', b'')
open('scan.png', 'wb').write(png)
PY
cat > scanned.html <<EOF
<html><head><meta charset="utf-8"></head><body><p><img src="scan.png" width="400" height="200"></p></body></html>
EOF

mkdir -p out
for f in sample russian chinese scanned; do to_pdf "$f.html"; cp "out/$f.pdf" "$here/$f.pdf"; done
to_docx headings.html && cp out/headings.docx "$here/headings.docx"
to_docx russian-docx.html && cp out/russian-docx.docx "$here/russian.docx"

# Password-protected (user password "secret"): opening it needs the password.
qpdf --encrypt secret owner-secret 256 -- "$here/sample.pdf" "$here/encrypted.pdf"
# Corrupt: a PDF header followed by the middle of a real PDF and garbage: no xref, no trailer, no pages.
python3 - "$here" <<'PY'
import sys, os
here = sys.argv[1]
data = open(os.path.join(here, 'sample.pdf'), 'rb').read()
open(os.path.join(here, 'corrupt.pdf'), 'wb').write(b'%PDF-1.7\n%\xe2\xe3\xcf\xd3\n' + bytes((b * 7 + 3) % 256 for b in data[400:2400]))
# Broken docx: the first half of a real .docx (the zip's central directory is gone).
docx = open(os.path.join(here, 'headings.docx'), 'rb').read()
open(os.path.join(here, 'broken.docx'), 'wb').write(docx[: len(docx) // 2])
PY
# Legacy-encoded text (sample.md, sample.html and xss.* are plain UTF-8 files written by hand).
python3 - "$here" <<'PY'
import sys, os
here = sys.argv[1]
ru = ("Таможенное оформление\r\n\r\nТаможенная декларация подаётся до прибытия товара.\r\n"
      "Таможня проверяет документы в течение четырёх часов.\r\n\r\n"
      "Возврат товара оформляется без уплаты таможенной пошлины.\r\n")
open(os.path.join(here, 'cp1251.txt'), 'wb').write(ru.encode('cp1251'))
open(os.path.join(here, 'koi8r.txt'), 'wb').write(ru.replace('\r\n', '\n').encode('koi8_r'))
zh = "海关申报\n\n所有进口货物必须在到港前向海关申报。\n报关员需要提供商业发票和装箱单。\n\n退货政策\n\n客户可以在三十天内申请退货。\n"
open(os.path.join(here, 'gbk.txt'), 'wb').write(zh.encode('gbk'))
mix = "Returns policy\r\n\r\nВозврат товара в течение 30 дней.\r\n退货需在三十天内办理。\r\n"
open(os.path.join(here, 'utf16le-bom.txt'), 'wb').write(b'\xff\xfe' + mix.encode('utf-16-le'))
PY
ls -l "$here"
