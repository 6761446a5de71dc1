import { siteConfig } from '../../../config/site';
import { SECTION_IDS } from '../../../config/paths';
import { loreParagraphs } from '../../../content/home-content';
import { HomeSection } from './home-section';

/** AboutSection tells the lore: "The Royal Chronicle". */
export function AboutSection() {
  return (
    <HomeSection id={SECTION_IDS.about} eyebrow="About" title="The Royal Chronicle">
      <div className="mx-auto max-w-3xl rounded-3xl border border-white/10 bg-royal-900/60 p-6 text-lg leading-relaxed text-white/85 sm:p-10">
        {loreParagraphs(siteConfig.coinName).map((paragraph, index) => (
          <p
            key={index}
            className={
              index === 0
                ? 'first-letter:font-display first-letter:float-left first-letter:mr-2 first-letter:text-6xl first-letter:leading-none first-letter:text-gold-300'
                : 'mt-5'
            }
          >
            {paragraph}
          </p>
        ))}
      </div>
    </HomeSection>
  );
}
