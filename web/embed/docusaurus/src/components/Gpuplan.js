// gpuplan in a Docusaurus page (a React component): copy this file to src/components/Gpuplan.js
// and the site bundle (cmake --build --preset wasm --target site-bundle) to static/tools/gpuplan/.
// In an .mdx page:
//   import Gpuplan from '@site/src/components/Gpuplan';
//   <Gpuplan panel="fit" state="v=1&model=llama-3.1-70b&weights=q4_k_m&gpu=rtx-4090&tp=2" />
// panel: fit, speed, cost, compare, train or roofline. state: a link's hash without the '#' (the
// page's Copy link gives it). Optional: src (default: /tools/gpuplan/ under the site's baseUrl),
// height (px; default 520), title. The frame takes the height its panel reports ('gpuplan:height').
import useBaseUrl from '@docusaurus/useBaseUrl';
import React, {useEffect, useRef, useState} from 'react';

export default function Gpuplan({panel = 'fit', state = '', src, height = 520, title}) {
  const base = useBaseUrl('/tools/gpuplan/');
  const frame = useRef(null);
  const [h, setH] = useState(height);
  useEffect(() => {
    const onMessage = (e) => {
      const d = e.data;
      if (d && d.type === 'gpuplan:height' && frame.current && e.source === frame.current.contentWindow)
        setH(Math.min(Math.max(d.height, 200), 4000));
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);
  return (
    <iframe ref={frame} className='gpuplan' src={`${src || base}#embed=${panel}&${state}`} width='100%'
  height = {h} style = {
    { border: 0, maxWidth: '100%' }
  } loading = 'lazy' title = { title || `gpuplan: ${panel}` } />
  );
}
