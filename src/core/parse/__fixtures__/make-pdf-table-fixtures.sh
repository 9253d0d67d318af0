#!/usr/bin/env bash
# Regenerates the fixtures of the PDF table detector (pdf-tables.ts): tables.pdf, an HTML page made here and printed
# by Chromium, and tables-gs.pdf, a PostScript page made here and distilled by ghostscript. Run once by hand; the
# outputs are committed and the tests never need these tools. Needs: chromium, ghostscript, fonts-dejavu,
# fonts-droid-fallback (Chinese; a TrueType font keeps the file small and its text layer free of Kangxi radicals).
# tables.pdf:
#   page 1: two tables (English, Russian and Chinese cells, right-aligned numbers) between paragraphs
#   page 2: two-column prose in English and in Chinese (must stay prose)
#   page 3: a bulleted list, a numbered list with wide marker gaps, a code block with a comment column (stay text)
#   page 4-5: a table with wrapped, vertically centred cells; a 44-row table that runs onto page 5 (header repeated)
#   page 6: a tight table (2 pt cell padding, as word processors set it) under three columns of justified prose
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chromium="${CHROMIUM:-chromium}"

lanes="$(python3 - <<'PY'
ports = [('Shanghai', 'CNSHA', '上海'), ('Ningbo', 'CNNGB', '宁波'), ('Shenzhen', 'CNSZX', '深圳'), ('Qingdao', 'CNTAO', '青岛'),
         ('Tianjin', 'CNTXG', '天津'), ('Xiamen', 'CNXMN', '厦门'), ('Dalian', 'CNDLC', '大连'), ('Guangzhou', 'CNCAN', '广州')]
dest = [('Rotterdam', 'NLRTM'), ('Hamburg', 'DEHAM'), ('Antwerp', 'BEANR'), ('Felixstowe', 'GBFXT'), ('Gdansk', 'PLGDN'),
        ('Санкт-Петербург', 'RULED')]
k = 0
for p, pc, zh in ports:
    for d, dc in dest:
        k += 1
        if k <= 44:
            print(f'<tr><td>{k}</td><td>{p} ({zh})</td><td>{d}</td><td>{pc}-{dc}</td>'
                  f'<td class="num">{1200 + 37 * k:,}</td><td class="num">{28 + (k * 7) % 15}</td></tr>')
PY
)"

cat > "$work/tables.html" <<EOF
<!doctype html>
<html><head><meta charset="utf-8"><title>Freight Rates and Customs</title>
<style>
@page { size: A4; margin: 20mm; }
body { font-family: 'DejaVu Sans', 'Droid Sans Fallback', sans-serif; font-size: 11pt; line-height: 1.4; }
h1 { font-size: 20pt; } h2 { font-size: 15pt; }
table { border-collapse: collapse; margin: 8pt 0; }
th, td { border: 1px solid #444; padding: 3pt 8pt; text-align: left; vertical-align: top; }
td.num { text-align: right; }
table.mid td { vertical-align: middle; }
.cols { column-count: 2; column-gap: 10mm; text-align: justify; }
.page { page-break-before: always; }
pre { font-family: 'DejaVu Sans Mono', monospace; font-size: 9.5pt; }
ol.tabbed { list-style: none; padding-left: 0; }
ol.tabbed span { display: inline-block; width: 3em; }
.serif { font-family: 'DejaVu Serif', 'Droid Sans Fallback'; font-size: 10pt; line-height: 1.2; }
.cols3 { column-count: 3; column-gap: 6mm; text-align: justify; }
table.tight { border-collapse: collapse; }
table.tight td, table.tight th { padding: 0 2pt; border: 1px solid #000; }
</style></head><body>
<h1>Freight Rates</h1>
<p>The table below lists the contract rates per container for the main lanes. Rates are in US dollars and include the terminal handling charge at the port of loading.</p>
<table>
<thead><tr><th>Lane</th><th>Container</th><th>Rate (USD)</th><th>Transit days</th></tr></thead>
<tbody>
<tr><td>Shanghai – Rotterdam</td><td>40ft HC</td><td class="num">2,450</td><td class="num">32</td></tr>
<tr><td>Ningbo – Hamburg</td><td>20ft DV</td><td class="num">1,380</td><td class="num">35</td></tr>
<tr><td>Санкт-Петербург – Шанхай</td><td>40ft HC</td><td class="num">3,100</td><td class="num">41</td></tr>
<tr><td>深圳 – 鹿特丹</td><td>冷藏箱 40ft</td><td class="num">4,720</td><td class="num">30</td></tr>
<tr><td>Qingdao – Felixstowe</td><td>40ft HC</td><td class="num">2,290</td><td class="num">33</td></tr>
</tbody></table>
<p>Surcharges for bunker fuel and peak season are billed separately on the freight invoice and are not part of the contract rate.</p>
<h2>Таможенные сборы</h2>
<p>Сборы за таможенное оформление зависят от таможенной стоимости партии.</p>
<table>
<tr><th>Таможенная стоимость</th><th>Сбор, руб.</th><th>备注</th></tr>
<tr><td>до 200 000</td><td class="num">1 067</td><td>电子申报</td></tr>
<tr><td>200 001 – 450 000</td><td class="num">2 134</td><td>电子申报</td></tr>
<tr><td>450 001 – 1 200 000</td><td class="num">4 269</td><td>需要纸质发票</td></tr>
<tr><td>свыше 1 200 000</td><td class="num">5 335</td><td>需要纸质发票和装箱单</td></tr>
</table>
<p>После выпуска товара декларант получает электронное уведомление.</p>

<div class="page"></div>
<h2>Warehouse Notes</h2>
<div class="cols">
<p>Inbound pallets are counted against the advance shipping notice before they are put away in the racking. Any shortage is recorded on the delivery receipt and reported to the supplier on the same day, together with photographs of the pallet labels and the seal number of the container.</p>
<p>Damaged cartons are moved to the quarantine area, where quality control decides within two working days whether the goods are returned, reworked or written off. The decision is recorded in the warehouse system so that the purchasing team can claim a credit note from the supplier.</p>
<p>Outbound orders picked before two o'clock leave the warehouse on the same day. Orders for export are packed on heat-treated pallets that carry the ISPM 15 mark, and every pallet is wrapped and labelled with the consignee address and the order number before it is loaded.</p>
<p>Cycle counts run every night for the fastest-moving articles and once a month for the rest. A difference larger than two percent of the book quantity triggers a full recount of the location by a second team before any adjustment is posted.</p>
</div>
<h2>仓库说明</h2>
<div class="cols" style="text-align: left">
<p>所有进口货物到达仓库后，收货员根据预先发货通知清点托盘数量，并检查外包装是否完好。如果发现短少或破损，应当在送货单上注明，并在当天通知供应商，同时附上托盘标签和集装箱封条的照片。</p>
<p>出口订单在下午两点之前拣货完成的，当天发运。出口货物使用经过热处理并带有标记的托盘，每个托盘都要缠绕包装，并贴上收货人地址和订单号码的标签，然后才能装车。</p>
</div>

<div class="page"></div>
<h2>Checklist and Script</h2>
<p>Before a container is released the dispatcher goes through these steps:</p>
<ul>
<li>Check the packing list against the pick confirmation.</li>
<li>Print the carrier label and the export declaration.</li>
<li>Photograph the seal before the doors are closed.</li>
<li>Send the advance shipping notice to the consignee.</li>
</ul>
<ol class="tabbed">
<li><span>1.</span>Weigh the container on the certified scale.</li>
<li><span>2.</span>Record the verified gross mass.</li>
<li><span>3.</span>Submit it to the carrier before the cut-off.</li>
</ol>
<p>The nightly export job is started by this script:</p>
<pre>
export_date=\$(date +%F)     # today's date
outbox=/srv/edi/outbox      # where files go
retries=3                   # attempts per file
for f in "\$outbox"/*.xml; do
  send "\$f" --retries "\$retries"
done
</pre>
<p>The job writes its log to the shared folder, and the dispatcher checks it every morning.</p>

<div class="page"></div>
<h2>Incoterms</h2>
<p>The terms below decide where the risk passes from the seller to the buyer.</p>
<table class="mid" style="width: 100%">
<thead><tr><th>Term</th><th>Risk passes</th><th>Who pays freight</th></tr></thead>
<tr><td>FOB</td><td>When the goods are on board the vessel at the named port of shipment, loaded by the seller</td><td>Buyer</td></tr>
<tr><td>CIF</td><td>On board the vessel; the seller also buys minimum insurance cover for the buyer</td><td>Seller</td></tr>
<tr><td>DAP</td><td>В согласованном месте назначения, когда товар готов к разгрузке с прибывшего транспортного средства</td><td>Продавец</td></tr>
<tr><td>EXW</td><td>At the seller's premises</td><td>Buyer</td></tr>
</table>
<p>The full lane list follows.</p>
<h2>Lane Register</h2>
<table>
<thead><tr><th>No.</th><th>Origin port</th><th>Destination</th><th>Lane code</th><th>Rate</th><th>Days</th></tr></thead>
<tbody>
$lanes
</tbody></table>
<p>Lanes not in the register are quoted on request.</p>

<div class="page serif">
<h2>Parts List</h2>
<div class="cols3"><p>Freight is booked with the carrier at least ten days before the vessel leaves the port of loading, and the booking confirmation is sent to the shipper on the same day so that the container can be collected from the depot in time. The shipper then loads the goods, seals the container and returns it to the terminal before the cut-off time.</p><p>Export declarations are filed electronically. The customs office checks them against the commercial invoice and the packing list and may ask for an inspection of the goods before the container is loaded on the vessel, which can delay the shipment by a day or two.</p><p>At the port of discharge the consignee or its broker files the import declaration, pays the duties and taxes and arranges the delivery of the container to the warehouse, where it is unloaded and the empty container returned.</p></div>
<table class="tight"><tr><th>Code</th><th>Description</th><th>Qty</th><th>Unit price</th></tr>
<tr><td>A-100</td><td>Steel bolts M8 x 40 zinc plated</td><td>1200</td><td>0.12</td></tr>
<tr><td>A-101</td><td>Гайки М8 оцинкованные</td><td>1200</td><td>0.05</td></tr>
<tr><td>B-220</td><td>垫圈 8 毫米</td><td>2400</td><td>0.02</td></tr>
<tr><td>C-310</td><td>Hex key set 1.5–10 mm</td><td>15</td><td>7.90</td></tr></table>
<p>Prices are per piece and exclude value added tax.</p>
</div>
</body></html>
EOF

"$chromium" --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$work/tables.pdf" \
  "file://$work/tables.html" >/dev/null 2>&1
cp "$work/tables.pdf" "$here/tables.pdf"

# tables-gs.pdf: one page in Helvetica, each piece of text its own `show`: a table written column by column (as some
# generators do), a bulleted list with a wide gap after the bullets, two-column prose written column after column.
cat > "$work/tables-gs.ps" <<'EOF'
%!PS
/F { findfont exch scalefont setfont } def
/S { moveto show } def
16 /Helvetica-Bold F (Stock Report) 50 760 S
10 /Helvetica F
(Stock is counted every night. The figures below are the closing balance per) 50 735 S
(warehouse, in pallets, after the last truck of the day has been unloaded.) 50 722 S
% table drawn column by column (some generators write it so)
10 /Helvetica-Bold F
(Warehouse) 50 695 S
10 /Helvetica F
(Rotterdam North) 50 680 S (Hamburg Port) 50 665 S (Gdansk East) 50 650 S (Antwerp) 50 635 S
10 /Helvetica-Bold F (Pallets) 200 695 S 10 /Helvetica F
(1,240) 200 680 S (860) 200 665 S (312) 200 650 S (1,002) 200 635 S
10 /Helvetica-Bold F (Free slots) 280 695 S 10 /Helvetica F
(35) 280 680 S (120) 280 665 S (8) 280 650 S (64) 280 635 S
10 /Helvetica-Bold F (Manager) 370 695 S 10 /Helvetica F
(J. de Vries) 370 680 S (K. Schulz) 370 665 S (A. Nowak) 370 650 S (M. Peeters) 370 635 S
(Balances are confirmed by the site manager before eight o'clock.) 50 610 S
% a list with a tab-like gap
(\267) 60 585 S (Count the pallets in the racking.) 75 585 S
(\267) 60 571 S (Record damaged pallets separately.) 75 571 S
(\267) 60 557 S (Send the count to the planning team.) 75 557 S
% two-column prose, left column lines first, then right column
(Inbound pallets are counted against the) 50 520 S
(advance shipping notice before they are) 50 507 S
(put away in the racking, and any missing) 50 494 S
(pallet is reported on the same day.) 50 481 S
(Outbound orders picked before two o'clock) 310 520 S
(leave the warehouse on the same day, and) 310 507 S
(every export pallet carries the ISPM 15) 310 494 S
(mark and the consignee address label.) 310 481 S
(Page 1) 290 40 S
showpage
EOF
gs -q -dNOPAUSE -dBATCH -sDEVICE=pdfwrite -sOutputFile="$here/tables-gs.pdf" "$work/tables-gs.ps"
ls -l "$here/tables.pdf" "$here/tables-gs.pdf"
